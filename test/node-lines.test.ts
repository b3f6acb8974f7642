import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { unsupportedNode } from '../bin/supported-node.js';

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; optional?: boolean; os?: string[]; dev?: boolean }>;
};

/** The lines users run in November 2026: 26 (active LTS), 24 and 22 (maintenance). */
const LINES = [22, 24, 26];

describe('the Node.js lines paybatch runs on', () => {
  it('engines.node claims exactly the 22, 24 and 26 lines', () => {
    const claim = pkg.engines.node;
    for (const line of LINES) expect(semver.intersects(claim, `^${line}.0.0`), `line ${line}`).toBe(true);
    for (const other of ['20.20.2', '21.7.3', '23.11.1', '25.9.0', '27.0.0']) expect(semver.satisfies(other, claim), other).toBe(false);
  });

  it('no installed package declares an engines.node range that leaves out a version paybatch claims', () => {
    const claim = pkg.engines.node;
    const refusing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
      if (!path || !range) continue;
      // A platform's optional binary that refuses a Node is skipped by npm on it (rollup's, for one): nothing breaks.
      if (entry.optional && entry.os) continue;
      if (!semver.subset(claim, range)) refusing.push(`${path}@${entry.version}: ${range}${entry.dev ? ' (dev)' : ''}`);
    }
    expect(refusing).toEqual([]);
  });

  it('development runs on a pinned Node of a supported line, and the types follow the lowest line', () => {
    const pinned = pkg.devDependencies.node!;
    expect(semver.valid(pinned), 'an exact version, not a range').toBe(pinned);
    expect(semver.satisfies(pinned, pkg.engines.node)).toBe(true);
    expect(semver.minVersion(pkg.devDependencies['@types/node']!)!.major).toBe(LINES[0]);
  });

  it('the launcher refuses a Node below the floor, naming both versions, and lets every claimed line run', () => {
    const floor = semver.minVersion(pkg.engines.node)!.version;
    expect(floor).toBe('22.12.0');
    for (const ok of [floor, '22.23.3', '24.0.0', '24.21.0', '26.0.0', '26.12.1']) expect(unsupportedNode(ok), ok).toBeUndefined();
    for (const old of ['20.20.2', '22.11.0', '18.20.8', '21.7.3']) {
      const refusal = unsupportedNode(old);
      expect(refusal, old).toContain(`this is Node.js ${old}`);
      expect(refusal, old).toContain('22.12');
    }
  });
});
