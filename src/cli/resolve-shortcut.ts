// Answers the requires whose answer is known before the run, without Node's resolver.
//
// Node resolves each new (folder, request) pair with stats, a realpath walk, package.json
// lookups and, for a package with an `exports` map, its ES resolver, in loader code that runs
// cold on every start: about 6 ms of a `hooks list`, over 126 calls (docs/PERFORMANCE.md,
// change 39). Three kinds are known ahead:
// - between hookctl's own built files: rolldown writes `require("./name-HASH.js")` with the exact
//   file name, and dist/ holds real files only, so the answer is the path joined;
// - a package hookctl requires on a run (@oclif/core, smol-toml) from hookctl's files: its
//   `exports` name a file inside the package;
// - inside such a package: a relative require (or the package naming itself) lands on the same
//   file wherever the package is installed.
// The build asks Node for the last two (dist/known-requires.json, scripts/lib/known-requires.mjs).
// They are used for a package found where Node finds it, with the version they were made from.
// Anything else (another package, a require with options, a request not in the table) goes to
// Node as before.
import { readFileSync, realpathSync } from 'node:fs';
import NodeModule from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';

interface ParentLike {
  filename?: string | null;
}

interface ModuleStatic {
  _resolveFilename(request: string, parent: ParentLike | undefined, isMain: boolean, options?: unknown): string;
  _nodeModulePaths(from: string): string[];
}

/** What dist/known-requires.json says of one package (paths relative to its folder, with `/`). */
export interface KnownPackage {
  version: string;
  /** `name` or `name/subpath` → file, for a require from hookctl's own files. */
  exports: Record<string, string>;
  /** Per file of the package: request → file. */
  files: Record<string, Record<string, string>>;
}

/** A package whose table holds: its folder (real path) and what the table says. */
export interface FoundPackage extends KnownPackage {
  name: string;
  root: string;
}

export interface ResolveShortcut {
  /** hookctl's dist/ folder (real path). */
  distDir: string;
  /** Its .js files, relative to it with `/` (what the build wrote). */
  distFiles: ReadonlySet<string>;
  packages: FoundPackage[];
}

/** dist/known-requires.json. */
export interface KnownRequires {
  dist?: string[];
  packages?: Record<string, KnownPackage>;
}

const Module = NodeModule as unknown as ModuleStatic;
let installed = false;

/** Installs the shortcut (once per process). */
export function installResolveShortcut(shortcut: ResolveShortcut): void {
  if (installed) return;
  installed = true;
  const nodeResolve = Module._resolveFilename;
  Module._resolveFilename = function (this: unknown, request, parent, isMain, options) {
    const answer = options === undefined ? knownAnswer(shortcut, request, parent?.filename) : undefined;
    return answer ?? (Reflect.apply(nodeResolve, this, [request, parent, isMain, options]) as string);
  } as ModuleStatic['_resolveFilename'];
}

/** The file `request` from `parentFile` names, when known ahead (see above); else undefined. */
export function knownAnswer(
  shortcut: ResolveShortcut,
  request: string,
  parentFile: string | null | undefined,
): string | undefined {
  if (!parentFile) return undefined;
  const dist = shortcut.distDir + sep;
  if (parentFile.startsWith(dist)) {
    if (request.startsWith('./') || request.startsWith('../')) {
      if (!request.endsWith('.js')) return undefined;
      const file = resolve(dirname(parentFile), request);
      if (!file.startsWith(dist)) return undefined;
      return shortcut.distFiles.has(file.slice(dist.length).replaceAll(sep, '/')) ? file : undefined;
    }
    for (const p of shortcut.packages) {
      if (request !== p.name && !request.startsWith(`${p.name}/`)) continue;
      const target = p.exports[request];
      return target === undefined ? undefined : inside(p.root, target);
    }
    return undefined;
  }
  for (const p of shortcut.packages) {
    if (!parentFile.startsWith(p.root + sep)) continue;
    const target = p.files[parentFile.slice(p.root.length + 1).replaceAll(sep, '/')]?.[request];
    return target === undefined ? undefined : inside(p.root, target);
  }
  return undefined;
}

const inside = (root: string, target: string): string => join(root, ...target.split('/'));

/**
 * The shortcut for hookctl's dist/ folder `distDir` (real path), from its known-requires.json.
 * A package is looked for as Node looks for it from dist/cli/: in the node_modules folders up
 * from there, the first that holds its package.json; its real path, as Node answers. One not
 * found there (NODE_PATH, global folders), or of another version than the table was made from,
 * is left to Node's resolver, and so is everything when the table is missing or unreadable.
 */
export function knownRequires(distDir: string): ResolveShortcut {
  const shortcut: ResolveShortcut = { distDir, distFiles: new Set(), packages: [] };
  let table: KnownRequires;
  try {
    table = JSON.parse(readFileSync(join(distDir, 'known-requires.json'), 'utf8')) as KnownRequires;
  } catch {
    return shortcut;
  }
  if (Array.isArray(table.dist)) shortcut.distFiles = new Set(table.dist);
  const folders = Module._nodeModulePaths(join(distDir, 'cli'));
  for (const [name, known] of Object.entries(table.packages ?? {})) {
    try {
      const found = firstPackageJson(folders, name);
      if (found === undefined) continue;
      const { version } = JSON.parse(found.text) as { version?: unknown };
      if (version !== known.version || typeof known.exports !== 'object' || typeof known.files !== 'object') continue;
      shortcut.packages.push({ ...known, name, root: realpathSync.native(found.dir) });
    } catch {
      // an unreadable or broken package.json: Node's resolver answers for this package
    }
  }
  return shortcut;
}

/** The folder of package `name` in the first of `folders` that holds its package.json, and that file's text. */
function firstPackageJson(folders: readonly string[], name: string): { dir: string; text: string } | undefined {
  for (const folder of folders) {
    const dir = join(folder, name);
    try {
      return { dir, text: readFileSync(join(dir, 'package.json'), 'utf8') };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
    }
  }
  return undefined;
}
