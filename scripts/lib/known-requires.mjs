// Where the requires of a run land, for the resolver shortcut of src/cli/resolve-shortcut.ts:
// written by the build into dist/known-requires.json. For each package hookctl requires on a
// run (@oclif/core, smol-toml): the file each `package/subpath` names from hookctl's own files
// (the package's `exports`), and where each relative require inside the package lands (or the
// package naming itself, as oclif's cache.js does). Both are the same wherever the package is
// installed, so they hold for the version they were made from, and only for it: the version is
// in the file, and a run checks it against the installed package.
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';

/** The packages whose requires are answered ahead. */
export const KNOWN_PACKAGES = ['@oclif/core', 'smol-toml'];

/**
 * { dist, packages: { name: { version, exports, files } } }, as Node answers them for a require from
 * `fromFile` (a file of hookctl's dist/): `exports` maps `name/subpath` to a file inside the
 * package, `files` maps a file of the package to its requests' files; paths are relative to the
 * package's folder, with `/`.
 */
export function knownRequires(fromFile, names = KNOWN_PACKAGES) {
  const requireFrom = createRequire(fromFile);
  const packages = {};
  for (const name of names) {
    // Found as the run finds it (src/cli/resolve-shortcut.ts packageFolder).
    const folder = Module._nodeModulePaths(dirname(fromFile)).find((f) => existsSync(join(f, name, 'package.json')));
    if (folder === undefined) throw new Error(`known-requires: ${name} is not installed`);
    const root = realpathSync.native(join(folder, name));
    const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const exports = {};
    for (const subpath of exportedSubpaths(pjson.exports)) {
      const request = subpath === '.' ? name : `${name}${subpath.slice(1)}`;
      let target;
      try {
        target = requireFrom.resolve(request);
      } catch {
        continue; // an export Node cannot require (ES only): Node's to answer
      }
      if (target.startsWith(root + sep)) exports[request] = posix(relative(root, target));
    }
    packages[name] = { version: pjson.version, exports, files: fileRequires(root, name) };
  }
  return { dist: builtFiles(dirname(dirname(fromFile))), packages };
}

/** The .js files of dist/ (relative, with `/`): the only files a require between them can name. */
function builtFiles(dist) {
  return [...codeFiles(dist)].filter((f) => f.endsWith('.js')).map((f) => posix(relative(dist, f)));
}

/** The subpaths of an `exports` field ('.' for the package itself). */
function exportedSubpaths(exports) {
  if (exports === undefined || exports === null) return [];
  if (typeof exports === 'string' || Array.isArray(exports)) return ['.'];
  const keys = Object.keys(exports);
  return keys.length > 0 && keys.every((k) => k.startsWith('.')) ? keys.filter((k) => !k.includes('*')) : ['.'];
}

/** Each .js/.cjs file of the package → its relative requests (and the package naming itself) → file. */
function fileRequires(root, name) {
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const pattern = new RegExp(String.raw`\brequire\((["'])(\.{1,2}\/[^"']*|${escaped}(?:\/[^"']*)?)\1\)`, 'g');
  const files = {};
  for (const file of codeFiles(root)) {
    const requireFrom = createRequire(file);
    const answers = {};
    for (const [, , request] of readFileSync(file, 'utf8').matchAll(pattern)) {
      let target;
      try {
        target = requireFrom.resolve(request);
      } catch {
        continue; // Node's to fail on at run time
      }
      if (target.startsWith(root + sep)) answers[request] = posix(relative(root, target));
    }
    if (Object.keys(answers).length > 0) files[posix(relative(root, file))] = answers;
  }
  return files;
}

function* codeFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') yield* codeFiles(path);
    } else if (entry.name.endsWith('.js') || entry.name.endsWith('.cjs')) yield path;
  }
}

const posix = (path) => path.split(sep).join('/');
