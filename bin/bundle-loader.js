// Loads the bundle (dist/bundle/, CommonJS files) with V8 code caches made after a run, so a start neither parses nor
// compiles the functions it runs. Node's own compile cache keeps only what V8 compiled with each file, and V8
// compiles a function when it is first called, so each start compiled commander's methods and paybatch's own anew
// (`keys check`: 131 M instructions then, 117 M with these caches). Here each file's cache is made once a command has
// run, holding every function that run compiled, and made again when another command first uses the file (the cache
// then holds both: V8 keeps the functions it read from the old one).
//
// The caches live in the user's cache folder (XDG_CACHE_HOME if absolute, else ~/.cache), under
// paybatch/code/<node>-<arch>/: compiled code is code, so the folder is made 0700 and used only while it is the
// user's own and nobody else may write in it. An entry is named after its file's size, inode and change time, so a
// rebuilt or reinstalled file never meets an old cache; V8 itself refuses a cache from another Node or other flags.
// NODE_DISABLE_COMPILE_CACHE=1 turns it off.
'use strict';
const { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { homedir } = require('node:os');
const { basename, dirname, isAbsolute, join } = require('node:path');
const vm = require('node:vm');

/** What has contributed to which cache entry: `<entry> <command>` lines. */
const CONTRIBUTED = 'contributed';

/**
 * Loads `entry` (a file of the bundle) and what it requires of the bundle. `command` names the run (e.g. "keys
 * check"): a file's cache is made again the first time a command uses it. Returns the entry's exports and `save`,
 * which writes the caches this run owes (call it once the command has run; it never throws).
 */
function loadBundle(entry, { env = process.env, command = '' } = {}) {
  const folder = cacheFolder(env);
  const contributed = new Set(folder ? (readIfThere(join(folder, CONTRIBUTED), 'utf8') ?? '').split('\n').filter(Boolean) : []);
  const contribution = (name) => `${name} ${command}`;
  const loaded = new Map();
  const owed = [];

  const load = (file) => {
    const known = loaded.get(file);
    if (known) return known.exports;
    const source = readFileSync(file, 'latin1'); // the bundle is ASCII (scripts/bundle.mjs)
    const name = folder ? entryName(file) : null;
    const cachedData = name ? readIfThere(join(folder, name)) : undefined;
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
      filename: file,
      ...(cachedData ? { cachedData } : {}),
    });
    if (name && (!cachedData || script.cachedDataRejected || !contributed.has(contribution(name)))) owed.push({ name, script });
    const module = { id: file, filename: file, exports: {}, loaded: false };
    loaded.set(file, module);
    // The bundle's own files by their relative names, Node's modules as they are; only a package needs Node's
    // resolution (made once asked: it costs each file that never requires one).
    const here = dirname(file);
    let outside;
    const packages = () => (outside ??= createRequire(file));
    const require = (id) => (/^\.\/[\w-]+\.cjs$/.test(id) ? load(join(here, id)) : (process.getBuiltinModule(id) ?? packages()(id)));
    require.resolve = (id, options) => packages().resolve(id, options);
    Object.defineProperty(require, 'cache', { get: () => packages().cache });
    script.runInThisContext()(module.exports, require, module, file, here);
    module.loaded = true;
    return module.exports;
  };

  const exports = load(entry);
  const save = () => {
    if (!folder || !owed.length) return;
    try {
      for (const { name, script } of owed) {
        writeWhole(folder, name, script.createCachedData());
        contributed.add(contribution(name));
      }
      forgetOthers(folder, dirname(entry), contributed);
    } catch {
      // A cache not written is made again by a later run.
    }
  };
  return { exports, save };
}

/** The user's own cache folder for this Node, made if missing; null when it cannot be, or is not safe to, use. */
function cacheFolder(env) {
  if (env.NODE_DISABLE_COMPILE_CACHE === '1') return null;
  try {
    // A relative XDG_CACHE_HOME is not one (the XDG base directory rules): it would put code beside whatever folder
    // the command runs in.
    const base = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
    const folder = join(base, 'paybatch', 'code', `${process.versions.node}-${process.arch}`);
    let s = statSync(folder, { throwIfNoEntry: false });
    if (!s) {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      s = statSync(folder);
    }
    // Code is read from here: only a folder of this user's that nobody else may write in.
    if (s.uid !== process.getuid?.() || (s.mode & 0o022) !== 0) return null;
    if ((s.mode & 0o777) !== 0o700) chmodSync(folder, 0o700);
    return folder;
  } catch {
    return null;
  }
}

/** A file's cache entry: its name with its size, inode and change time (a rebuilt or reinstalled file is new). */
function entryName(file) {
  const s = statSync(file, { bigint: true });
  return `${basename(file)}.${s.size}.${s.ino}.${s.ctimeNs}.v8`;
}

/** The file's bytes (or text in `encoding`), or undefined when there is none to read. */
function readIfThere(path, encoding) {
  try {
    return readFileSync(path, encoding);
  } catch {
    return undefined;
  }
}

/** Writes `name` in `folder` under a temporary name first, so no other process reads it half-written. */
function writeWhole(folder, name, data) {
  const tmp = join(folder, `.${name}.${process.pid}`);
  writeFileSync(tmp, data, { mode: 0o600 });
  renameSync(tmp, join(folder, name));
}

/** Removes the entries of files no longer in the bundle (an older build), and rewrites what contributed to the rest. */
function forgetOthers(folder, bundle, contributed) {
  const current = new Set(readdirSync(bundle).map((f) => (f.endsWith('.cjs') ? entryName(join(bundle, f)) : null)).filter(Boolean));
  for (const f of readdirSync(folder)) if (f.endsWith('.v8') && !current.has(f)) rmSync(join(folder, f), { force: true });
  const kept = [...contributed].filter((line) => current.has(line.split(' ')[0]));
  writeWhole(folder, CONTRIBUTED, kept.map((line) => `${line}\n`).join(''));
}

module.exports = { loadBundle };
