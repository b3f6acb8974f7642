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

const { main } = await import('../dist/bundle/main.js');
// `paybatch ... | head` closes the pipe early: that is the reader's choice, not an error.
const readerGone = () => process.exit(process.exitCode ?? 0);
process.exitCode = await main(process.argv.slice(2), { readerGone });
