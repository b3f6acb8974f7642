// The Node.js lines paybatch runs on, checked before anything else loads: on an older Node its SQLite driver (a
// Node-API addon built for 22 and newer) crashes the process instead of failing with a message. The lines
// themselves are package.json's engines.node; this is its floor.
// ASCII only (its accent written \u00e9), as the bundle: a character beyond ASCII makes V8 read a file as UTF-16.

/** Why this paybatch cannot run on Node.js `version` ("20.20.2"), in both of its languages, or undefined. */
function unsupportedNode(version) {
  const [major, minor] = version.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 12)) return undefined;
  return (
    `paybatch needs Node.js 22.12 or newer (22, 24 or 26); this is Node.js ${version}.\n` +
    `O paybatch precisa do Node.js 22.12 ou mais novo (22, 24 ou 26); este \u00e9 o Node.js ${version}.\n`
  );
}

module.exports = { unsupportedNode };
