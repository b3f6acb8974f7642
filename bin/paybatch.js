#!/usr/bin/env node
'use strict';
// CommonJS, as the bundle: an ES module here would start Node's ES module loader, a tenth of a short command.
const { join } = require('node:path');
const { unsupportedNode } = require('./supported-node.js');

const refusal = unsupportedNode(process.versions.node);
if (refusal) {
  process.stderr.write(refusal);
  process.exit(1);
}

const { loadBundle } = require('./bundle-loader.js');
const argv = process.argv.slice(2);
const bundle = loadBundle(join(__dirname, '../dist/bundle/main.cjs'), { command: commandOf(argv) });
// `paybatch ... | head` closes the pipe early: that is the reader's choice, not an error.
const readerGone = () => process.exit(process.exitCode ?? 0);
bundle.exports.main(argv, { readerGone }).then((code) => {
  process.exitCode = code;
  bundle.save();
  // Once nothing is left to run (no handle, request or timer, the microtasks done), the process ends without tearing
  // its heap down first, as a natural exit does: about a millisecond of every short command. Anything still pending
  // (a daemon's last writes, a slow pipe) is let finish as usual.
  setImmediate(() => {
    if (process.getActiveResourcesInfo().length === 0) process.exit();
  });
});

/** The command's words ("keys check", "batch list"; none for --version): what a cache of the bundle was made for. */
function commandOf(words) {
  const named = [];
  for (let i = 0; i < words.length && named.length < 2; i++) {
    if (words[i] === '--profile' || words[i] === '--ledger') i++;
    else if (/^[a-z][a-z-]*$/.test(words[i])) named.push(words[i]);
    else if (!words[i].startsWith('-')) break;
  }
  return named.join(' ');
}
