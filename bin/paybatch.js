#!/usr/bin/env node
import module from 'node:module';
import { unsupportedNode } from './supported-node.js';

const refusal = unsupportedNode(process.versions.node);
if (refusal) {
  process.stderr.write(refusal);
  process.exit(1);
}

// V8's compiled code for the bundle, kept on disk by Node (in its default folder under the system's temporary one)
// and checked against each file's content: a start then compiles little. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
module.enableCompileCache?.();

// The bundle's files import each other by relative names only ('./chunk-x.js'). Node's own resolution looks up the
// package scope, its package.json and the file's stat for each, 6% of `batch list`'s start; these names need
// none of it. (Node before 22.15 has no registerHooks: it resolves them itself.)
const BUNDLE = new URL('../dist/bundle/', import.meta.url).href;
module.registerHooks?.({
  resolve: (specifier, context, next) =>
    /^\.\/[\w-]+\.js$/.test(specifier) && context.parentURL?.startsWith(BUNDLE)
      ? { url: new URL(specifier, context.parentURL).href, format: 'module', shortCircuit: true }
      : next(specifier, context),
});

const { main } = await import('../dist/bundle/main.js');
// `paybatch ... | head` closes the pipe early: that is the reader's choice, not an error.
const readerGone = () => process.exit(process.exitCode ?? 0);
process.exitCode = await main(process.argv.slice(2), { readerGone });
// Once nothing is left to run (no handle, request or timer, the microtasks done), the process ends without tearing
// its heap down first, as a natural exit does: about a millisecond of every short command. Anything still pending
// (a daemon's last writes, a slow pipe) is let finish as usual.
setImmediate(() => {
  if (process.getActiveResourcesInfo().length === 0) process.exit();
});
