#!/usr/bin/env node
import { unsupportedNode } from './supported-node.js';

const refusal = unsupportedNode(process.versions.node);
if (refusal) {
  process.stderr.write(refusal);
  process.exit(1);
}

// `paybatch ... | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(process.exitCode ?? 0);
});

const { main } = await import('../dist/bundle/main.js');
process.exitCode = await main(process.argv.slice(2));
