#!/usr/bin/env node
import { main } from '../dist/bundle/main.js';

// `paybatch ... | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await main(process.argv.slice(2));
