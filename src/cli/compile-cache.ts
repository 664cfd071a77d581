// Keeps V8's compiled code of every CommonJS module between runs, as Node 22's
// module.enableCompileCache() does. Node 20 has no such cache, and compiling hookctl's and
// oclif's code again on every start was about a quarter of each run (docs/PERFORMANCE.md).
//
// How: a module's source is compiled with vm.Script and the code V8 produced — the functions the
// run actually called included — is written at exit into a per-user folder. The next run hands it
// back to V8, which then skips parsing and compiling. V8 checks only the source's *length*
// against its cache, so each entry stores the source it was made from and is used only when it
// is byte for byte the source being loaded: a changed file is never run from stale code. V8 does
// not check the code data itself either (its checksum is off in release builds): 8 flipped bytes
// crashed Node (SIGSEGV, or a V8 fatal error) in 14 of 20 tries, and another module's code of
// the same source length ran as this one's. So each entry also stores a checksum of its code
// data, seeded with the module path and source length (codeChecksum), and an entry that fails it
// is compiled again and rewritten.
//
// The fast path's one file is loaded by loadFromCache below, without the module loader's lookup.
//
// Where: NODE_COMPILE_CACHE if set (the folder Node 22 would use), else
// <tmpdir>/hookctl-compile-cache-<uid>; one folder per Node version and architecture inside.
// The folder must be a real folder owned by the user and writable by no one else, or nothing is
// cached. NODE_DISABLE_COMPILE_CACHE (any value) turns the cache off. A run that wrote entries
// removes those of modules that are gone. Nothing here can change what a run does: any failure
// to read, check or write an entry just means a normal compile.
import { isAscii } from 'node:buffer';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  fstatSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
// Not node:module (the caller hands over the module class): requiring it loads Node's ES module
// loader, its source maps and assertions, three modules a run of hookctl never uses; nor node:os
// (tmpdir below).
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

export interface CompileCacheState {
  /** Where entries are read and written; undefined when the cache is off. */
  dir?: string;
  /** Why the cache is off, when it is. */
  off?: string;
  hits: number;
  misses: number;
  /** Entries found but not used: another source, or V8 refused the data (other version or flags). */
  rejected: number;
  /** Modules left to Node's own compile because they contain a dynamic `import(` (see below). */
  uncached: number;
}

/** A CommonJS module, as Node's loader makes it (`module` in a CommonJS file). */
export interface ModuleLike {
  exports: unknown;
  filename?: string | null;
  paths?: string[];
  loaded?: boolean;
  require(id: string): unknown;
  _compile(content: string, filename: string, format?: string): unknown;
}

/** Node's CommonJS module class (`module.constructor` in a CommonJS file). */
export interface ModuleStatic {
  new (id: string, parent?: ModuleLike): ModuleLike;
  prototype: ModuleLike;
  wrap(content: string): string;
  _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string;
  _extensions: unknown;
  _cache: Record<string, ModuleLike | undefined>;
  _resolveLookupPaths(request: string, parent: unknown): string[] | null;
  _nodeModulePaths(from: string): string[];
  _load(request: string, parent: unknown, isMain: boolean): unknown;
  enableCompileCache?: () => unknown;
}

const state: CompileCacheState = { hits: 0, misses: 0, rejected: 0, uncached: 0 };
/** What install() set up, for loadFromCache. */
let installed: { Module: ModuleStatic; compile: Compile } | undefined;

/** A module's source: as text (Node's loader read it), or the file itself (loadFromCache). */
type ModuleSource = { text: string } | { file: string };
/** What a compile ran: the module's value, and on a hit what its entry was made of. */
interface Ran {
  value: unknown;
  /** The module's entry file. */
  file: string;
  hit?: { script: Script; file: string; wrapped: string; coverage: readonly string[] };
}
/** Runs the module; undefined when `{ file }` is not pure ASCII (the caller then uses require()). */
type Compile = (mod: ModuleLike, filename: string, source: ModuleSource) => Ran | undefined;

/**
 * The fast path's file as loadFromCache ran it, and the kinds of declaration source its command
 * read (recordSourcesRead). An entry holds the code of the functions that the run that made it
 * called, and a hit is not rewritten, so an entry made by a `hooks list` in a folder with nothing
 * to read lacked every reader: each later list in a real workspace compiled them again (2.2x
 * node's start instead of 1.8x, docs/PERFORMANCE.md). The entry keeps the kinds its run read;
 * a run that reads a kind it lacks makes it again at exit, holding all it held and the new code.
 * Entries only grow, and each kind is added once.
 */
let served: { filename: string; file: string; hit?: NonNullable<Ran['hit']>; read: Set<string> } | undefined;

/** Tells the cache which kinds of declaration source this run's command read (see `served`). */
export function recordSourcesRead(kinds: readonly string[]): void {
  if (served === undefined) return;
  for (const kind of kinds) {
    served.read.add(kind);
    // A kind its entry lacks: the entry is made again at exit.
    if (served.hit !== undefined && !served.hit.coverage.includes(kind)) armExitWriter();
  }
}

/** What install() writes at exit, once armed: only a run that has something to write listens. */
let exitWriter: (() => void) | undefined;
let writerArmed = false;

/**
 * Listens for exit with the writer. A run served wholly from the cache never listens: the
 * listener, with `once`, cost five functions of Node's events module compiled on every start
 * (docs/PERFORMANCE.md). `on`, not `once`: 'exit' comes once.
 */
function armExitWriter(): void {
  if (writerArmed || exitWriter === undefined) return;
  writerArmed = true;
  process.on('exit', exitWriter);
}

/**
 * Installs the cache for every CommonJS module loaded from now on (once per process). `Module`
 * is Node's CommonJS module class: `module.constructor` in the CommonJS file that calls this.
 */
export function enableCompileCache(
  Module: ModuleStatic,
  env: NodeJS.ProcessEnv = process.env,
): Readonly<CompileCacheState> {
  if (state.dir !== undefined || state.off !== undefined) return state;
  if (nonEmpty(env.NODE_DISABLE_COMPILE_CACHE)) return off('NODE_DISABLE_COMPILE_CACHE is set');
  // Node 22.1+: its own cache covers ES and CommonJS modules alike.
  if (typeof Module.enableCompileCache === 'function') {
    Module.enableCompileCache();
    return off("Node's own compile cache is in use");
  }
  // A debugger pausing on the first line, or a policy manifest, need Node's own compile path.
  if (process.execArgv.some((a) => /^--(inspect|debug|experimental-policy)/.test(a)))
    return off('a debugger or policy flag is set');
  const dir = cacheFolder(env, Module);
  if (typeof dir !== 'string') return off(dir.off);
  state.dir = dir;
  install(Module, dir);
  return state;
}

function off(why: string): Readonly<CompileCacheState> {
  state.off = why;
  return state;
}

/** The folder of this Node version, created if needed, or why none can be used. */
function cacheFolder(env: NodeJS.ProcessEnv, Module: ModuleStatic): string | { off: string } {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const base =
    nonEmpty(env.NODE_COMPILE_CACHE) ??
    join(tempFolder(env, Module), `hookctl-compile-cache${uid === undefined ? '' : `-${uid}`}`);
  // `2`: entries made before modules with import() were left to Node may hold such a module, and
  // a hit is trusted without a scan (install below): a new folder, so no such entry is ever read.
  // `3`: entries carry a checksum of their code data (cachedCode below). `4`: they hold the
  // source wrapped, and V8's data at an offset that is a multiple of 8 (the entry's layout, below).
  // `5`: they hold the kinds of source their run read (`served`).
  const dir = join(base, `hookctl-5-${process.version}-${process.arch}`);
  // Checked before anything is made inside: another user's folder, or one others can write to,
  // could hand us their code to run.
  for (const folder of [base, dir]) {
    // Made only when missing: on every later start one lstat, not mkdir's calls as well.
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(folder, { throwIfNoEntry: false });
      if (st === undefined) {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        st = lstatSync(folder, { throwIfNoEntry: false });
      }
    } catch (err) {
      return { off: `cannot use ${folder}: ${(err as NodeJS.ErrnoException).code ?? String(err)}` };
    }
    if (st === undefined || !st.isDirectory()) return { off: `${folder} is not a folder` };
    if (uid !== undefined && st.uid !== uid) return { off: `${folder} belongs to another user` };
    if ((st.mode & 0o022) !== 0) return { off: `${folder} is writable by others` };
  }
  return dir;
}

/**
 * os.tmpdir() on POSIX, without loading node:os for it (one more module on every start); on
 * Windows, os.tmpdir() itself.
 */
function tempFolder(env: NodeJS.ProcessEnv, Module: ModuleStatic): string {
  if (process.platform === 'win32') return (Module._load('node:os', null, false) as { tmpdir(): string }).tmpdir();
  const path = nonEmpty(env.TMPDIR) ?? nonEmpty(env.TMP) ?? nonEmpty(env.TEMP) ?? '/tmp';
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** Node's module wrapper as Module.wrap puts it around a source: the text and UTF-8 before and after. */
interface Wrapper {
  head: string;
  tail: string;
  headBytes: Buffer;
  tailBytes: Buffer;
}

function wrapperOf(Module: ModuleStatic): Wrapper {
  const marked = Module.wrap('\0');
  const at = marked.indexOf('\0');
  const head = marked.slice(0, at);
  const tail = marked.slice(at + 1);
  return { head, tail, headBytes: Buffer.from(head), tailBytes: Buffer.from(tail) };
}

function install(Module: ModuleStatic, dir: string): void {
  const nodeCompile = Module.prototype._compile;
  const made: { script: Script; file: string; filename: string; wrapped: string; coverage?: readonly string[] }[] = [];
  let wrap: Wrapper | undefined;
  // A module Node's loader read is compared with its entry as text (sameBytes); the file of
  // loadFromCache is compared with it as bytes, read in pieces, and on a hit V8 gets the entry's
  // own copy of the wrapped source as its text: no second copy of the file is made, where the
  // text, the wrapped text V8 flattened and V8's copy of unaligned data were three of ~440 KB on
  // every start of the fast path (page faults cost 2-8 us each here; docs/PERFORMANCE.md).
  const compile: Compile = (mod, filename, source) => {
    const file = join(dir, entryName(filename, variants.get(filename)));
    const wrapper = (wrap ??= wrapperOf(Module));
    let found: Found | 'stale' | undefined;
    let content: string | undefined;
    let wrapped: string | undefined;
    if ('text' in source) {
      content = source.text;
      found = cachedCode(file, filename, (entry, start, length) =>
        sameWrapped(wrapper, content!, entry, start, length),
      );
    } else {
      const path = source.file;
      found = cachedCode(file, filename, (entry, start, length) => sameFile(wrapper, path, entry, start, length));
      // ASCII is its own UTF-8, so toString() with no encoding named: naming one calls a lookup of
      // Node's that is compiled on every start for this call alone (docs/PERFORMANCE.md).
      if (found instanceof Object && isAscii(found.source)) wrapped = found.source.toString();
      else {
        if (found instanceof Object) found = 'stale';
        const bytes = readFileSync(path);
        if (!isAscii(bytes) || !isAscii(wrapper.headBytes) || !isAscii(wrapper.tailBytes)) return undefined;
        wrapped = Buffer.concat([wrapper.headBytes, bytes, wrapper.tailBytes]).toString();
        content = wrapped.slice(wrapper.head.length, wrapped.length - wrapper.tail.length);
      }
    }
    // A dynamic import() in a script served from cached data fails (web-tree-sitter loads its
    // grammar that way; oclif reaches one in getPlatform()): Node compiles those, see
    // hasDynamicImport. An entry is only ever made from a source without import(), so a hit
    // needs no scan.
    if (!(found instanceof Object) && hasDynamicImport(content!)) {
      state.uncached++;
      return { value: nodeCompile.call(mod, content!, filename), file };
    }
    const cachedData = found instanceof Object ? found.code : undefined;
    const text = wrapped ?? Module.wrap(content!);
    let script: Script;
    try {
      script = new Script(text, { filename, cachedData });
    } catch {
      // Not CommonJS after all (Node may load it as an ES module): Node's own path decides.
      const unwrapped = content ?? text.slice(wrapper.head.length, text.length - wrapper.tail.length);
      return { value: nodeCompile.call(mod, unwrapped, filename), file };
    }
    if (found === undefined) state.misses++;
    else if (found === 'stale' || script.cachedDataRejected === true) state.rejected++;
    else state.hits++;
    const hit = found instanceof Object && script.cachedDataRejected !== true ? found : undefined;
    if (hit === undefined) {
      made.push({ script, file, filename, wrapped: text });
      armExitWriter();
    }
    const run = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    const value = run.call(mod.exports, mod.exports, requireFor(Module, mod), mod, filename, dirname(filename));
    return { value, file, ...(hit ? { hit: { script, file, wrapped: text, coverage: hit.coverage } } : {}) };
  };
  installed = { Module, compile };
  Module.prototype._compile = function (this: ModuleLike, content: string, filename: string, format?: string) {
    if (format === 'module') return nodeCompile.call(this, content, filename, format);
    return compile(this, filename, { text: content })!.value;
  };
  // At exit the code of every function the run called is compiled, so it goes into the entry.
  exitWriter = () => {
    if (served !== undefined) {
      const read = [...served.read];
      const fresh = made.find((m) => m.file === served!.file);
      if (fresh !== undefined) fresh.coverage = read.sort();
      else if (served.hit !== undefined && read.some((kind) => !served!.hit!.coverage.includes(kind)))
        made.push({
          ...served.hit,
          filename: served.filename,
          coverage: [...new Set([...served.hit.coverage, ...read])].sort(),
        });
    }
    if (made.length === 0) return;
    for (const { script, file, filename, wrapped, coverage } of made)
      writeEntry(file, filename, wrapped, script.createCachedData(), coverage ?? []);
    pruneEntries(dir, new Set(made.map((m) => m.file)));
  };
}

/**
 * Whether `source` may contain a dynamic `import(`: the word `import`, then only white space or
 * comments, then `(`. Such a module is compiled by Node itself, not through the cache, because
 * on Node 20 a script V8 deserialises from cached data loses its host-defined options, and with
 * them the dynamic-import callback: its `import()` then fails with
 * ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING on every run after the first (checked with vm.Script and
 * vm.compileFunction, with Node's default loader and with a callback of our own). A false match
 * (the words in a comment or a string) costs only that module's compile; oclif's few such files
 * (util/os.js, module-loader.js, ts-path.js, execute.js) are small.
 */
export function hasDynamicImport(source: string): boolean {
  for (let at = source.indexOf('import'); at !== -1; at = source.indexOf('import', at + 6)) {
    if (at > 0 && isIdentifierPart(source.charCodeAt(at - 1))) continue; // __importDefault
    if (isIdentifierPart(source.charCodeAt(at + 6))) continue; // importance
    let i = at + 6;
    for (;;) {
      while (i < source.length && /\s/.test(source[i]!)) i++;
      if (source.startsWith('/*', i)) {
        const end = source.indexOf('*/', i + 2);
        if (end === -1) return false;
        i = end + 2;
      } else if (source.startsWith('//', i)) {
        const end = source.indexOf('\n', i + 2);
        if (end === -1) return false;
        i = end + 1;
      } else break;
    }
    if (source[i] === '(') return true;
  }
  return false;
}

/** Letters, digits, `_`, `$` and anything beyond ASCII (which may be part of a name). */
function isIdentifierPart(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x5f ||
    c === 0x24 ||
    c > 0x7f
  );
}

/** What Node's own makeRequireFunction gives a module, built from public pieces. */
function requireFor(Module: ModuleStatic, mod: ModuleLike): NodeJS.Require {
  const require = ((id: string) => mod.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: unknown) =>
    Module._resolveFilename(request, mod, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request: string) => Module._resolveLookupPaths(request, mod);
  require.resolve = resolve;
  require.main = process.mainModule;
  require.extensions = Module._extensions as NodeJS.Require['extensions'];
  require.cache = Module._cache as NodeJS.Require['cache'];
  return require;
}

// An entry: the module's path, the kinds of source its run read (one per line; `served`) and its
// source wrapped as Module.wrap wraps it, each as 4 bytes of UTF-8 length (little-endian) and
// the text, then the checksum of V8's data (4 bytes), 0-7 zero bytes, and the data, at an offset
// that is a multiple of 8 (V8 copies data that is not aligned before it reads it). The path
// names the module for pruning; the source is what the data was made from; the checksum says the
// data is the data written for that module and source, whole. (The kinds are a hint: damaged,
// they can only cost a rewrite.)
const LENGTH = 4;
const CHECKSUM = 4;
const ALIGN = 8;
const aligned = (offset: number): number => Math.ceil(offset / ALIGN) * ALIGN;

/** An entry that passed its checks: V8's data, the entry's copy of the wrapped source, its kinds. */
interface Found {
  code: Buffer;
  source: Buffer;
  coverage: readonly string[];
}

/** The module path, its kinds and where its source starts, from an entry's first bytes; undefined if broken. */
function entryHeader(entry: Buffer): { path: string; coverage: string[]; sourceAt: number } | undefined {
  if (entry.length < LENGTH) return undefined;
  const pathLength = entry.readUInt32LE(0);
  const coverageAt = LENGTH + pathLength;
  if (coverageAt + LENGTH > entry.length) return undefined;
  const coverageLength = entry.readUInt32LE(coverageAt);
  const sourceAt = coverageAt + LENGTH + coverageLength;
  if (sourceAt + LENGTH > entry.length) return undefined;
  // UTF-8, named by leaving the encoding out (see install).
  const coverage = entry.toString(undefined, coverageAt + LENGTH, sourceAt);
  return {
    path: entry.toString(undefined, LENGTH, coverageAt),
    coverage: coverage === '' ? [] : coverage.split('\n'),
    sourceAt,
  };
}

/** The entry `file` of `filename` when `same` says its source (`length` bytes from `start`) is
 * the module's: undefined when there is no entry, 'stale' when it was made from another module
 * or source, is cut short, or its data fails the checksum. */
function cachedCode(
  file: string,
  filename: string,
  same: (entry: Buffer, start: number, length: number) => boolean,
): Found | 'stale' | undefined {
  let entry: Buffer;
  try {
    entry = readFileSync(file);
  } catch {
    return undefined;
  }
  const header = entryHeader(entry);
  if (header === undefined || header.path !== filename) return 'stale';
  const length = entry.readUInt32LE(header.sourceAt);
  const start = header.sourceAt + LENGTH;
  const sumAt = start + length;
  const codeAt = aligned(sumAt + CHECKSUM);
  if (codeAt >= entry.length || !same(entry, start, length)) return 'stale';
  const code = entry.subarray(codeAt);
  if (entry.readUInt32LE(sumAt) !== codeChecksum(filename, length, code)) return 'stale';
  return { code, source: entry.subarray(start, sumAt), coverage: header.coverage };
}

/**
 * The length of what the wrapper wraps in the entry's source (`length` bytes from `start`), or -1
 * when the source does not begin and end as the wrapper does.
 */
function wrappedLength(wrapper: Wrapper, entry: Buffer, start: number, length: number): number {
  const inner = length - wrapper.headBytes.length - wrapper.tailBytes.length;
  if (
    inner < 0 ||
    wrapper.headBytes.compare(entry, start, start + wrapper.headBytes.length) !== 0 ||
    wrapper.tailBytes.compare(entry, start + length - wrapper.tailBytes.length, start + length) !== 0
  )
    return -1;
  return inner;
}

/** Whether the entry's source (`length` bytes from `start`) is Module.wrap(`content`) in UTF-8. */
function sameWrapped(wrapper: Wrapper, content: string, entry: Buffer, start: number, length: number): boolean {
  const inner = wrappedLength(wrapper, entry, start, length);
  return (
    inner >= 0 &&
    Buffer.byteLength(content) === inner &&
    sameBytes(content, inner, entry, start + wrapper.headBytes.length)
  );
}

/**
 * Whether the entry's source (`length` bytes from `start`) is the file `path`, wrapped: the file
 * read in pieces into a reused buffer and compared with the entry byte for byte, so that no copy
 * of it is made in memory.
 */
function sameFile(wrapper: Wrapper, path: string, entry: Buffer, start: number, length: number): boolean {
  const head = wrapper.headBytes.length;
  const inner = wrappedLength(wrapper, entry, start, length);
  if (inner < 0) return false;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    if (fstatSync(fd).size !== inner) return false;
    for (let at = 0; at < inner;) {
      const read = readSync(fd, scratch, 0, Math.min(scratch.length, inner - at), at);
      if (read === 0 || scratch.compare(entry, start + head + at, start + head + at + read, 0, read) !== 0)
        return false;
      at += read;
    }
    // Nothing more: the file has not grown since it was measured.
    return readSync(fd, scratch, 0, 1, inner) === 0;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * CRC-32 of V8's data, seeded with the module path and its source's length, so that the data of
 * another module (or of another source of this one) never passes as this entry's. Integrity
 * against damage, not against a writer: only the user can write to the folder (cacheFolder).
 * zlib's crc32 (Node 20.15 and later) is native. It is taken from the zlib binding Node has
 * loaded anyway (nativeCrc32 below): loading node:zlib for it brought Node's stream modules (19
 * of them) and cost `hooks list` about 3 % of its instructions, where a JavaScript checksum loop
 * cost 9 % and node:crypto 4 ms (docs/PERFORMANCE.md). Older Node gets the same values from a
 * table.
 */
function codeChecksum(filename: string, sourceLength: number, code: Buffer): number {
  return crc32(code, crc32(Buffer.from(`${filename}\0${sourceLength}`), 0));
}

type Crc32 = (data: Buffer, value: number) => number;
let native: Crc32 | null | undefined;
let crcTable: Int32Array | undefined;

/** CRC-32 of `data` (the answer cache names its entries by it). */
export function checksum(data: Buffer): number {
  return crc32(data, 0);
}

function crc32(data: Buffer, value: number): number {
  // Found on the first entry read or written: a run with the cache off never looks.
  native ??= nativeCrc32();
  return native !== null ? native(data, value) >>> 0 : tableCrc32(data, value);
}

/**
 * zlib's native CRC-32, or null where Node has none: the function node:zlib's own crc32 calls
 * once it has checked its arguments (the process's zlib binding, without node:zlib and its
 * streams), used only if it gives the standard check value. Where the binding has none, neither
 * has node:zlib (both came in Node 20.15), and Node 22.1+ uses its own cache (enableCompileCache),
 * so there is nothing else to try. process.binding is deprecated (DEP0111, a warning only under
 * --pending-deprecation): the warning is held back for the one call, so no flag makes this print
 * anything or throw.
 */
export function nativeCrc32(): Crc32 | null {
  const check = Buffer.from('123456789');
  try {
    const quiet = process.noDeprecation;
    let binding: { crc32?: unknown };
    process.noDeprecation = true;
    try {
      binding = (process as unknown as { binding(name: string): { crc32?: unknown } }).binding('zlib');
    } finally {
      process.noDeprecation = quiet;
    }
    const f = binding.crc32;
    if (typeof f === 'function' && (f as Crc32)(check, 0) >>> 0 === 0xcbf43926) return f as Crc32;
  } catch {
    // No such binding here.
  }
  return null;
}

/** CRC-32 as zlib computes it, for a Node without zlib.crc32. */
export function tableCrc32(data: Buffer, value: number): number {
  crcTable ??= makeCrcTable();
  let crc = ~value;
  for (let i = 0; i < data.length; i++) crc = crcTable[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}

function makeCrcTable(): Int32Array {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
}

/** Reused across modules: the UTF-8 of the source being loaded, for the comparison below. */
let scratch = Buffer.allocUnsafe(1 << 16);

/**
 * Whether `source` (`length` bytes of UTF-8) is byte for byte `entry` from `start`: encoded into a
 * reused buffer and compared there, rather than decoding the entry into a second copy of every
 * module's source on the heap (about 600 KB a run, and with it a scavenge).
 */
function sameBytes(source: string, length: number, entry: Buffer, start: number): boolean {
  if (scratch.length < length) scratch = Buffer.allocUnsafe(Math.max(length, 2 * scratch.length));
  const written = scratch.write(source, 0, 'utf8');
  return written === length && scratch.compare(entry, start, start + length, 0, length) === 0;
}

let writes = 0;

/** Written beside and renamed into place: a concurrent run reads a whole entry or none. (No
 * fsync: an entry cut short by a crash fails the length checks and is made again.) */
function writeEntry(file: string, filename: string, wrapped: string, code: Buffer, coverage: readonly string[]): void {
  const temp = `${file}.${process.pid}.${writes++}.tmp`;
  try {
    const head = Buffer.concat([...withLength(filename), ...withLength(coverage.join('\n')), ...withLength(wrapped)]);
    const sum = Buffer.alloc(aligned(head.length + CHECKSUM) - head.length);
    sum.writeUInt32LE(codeChecksum(filename, Buffer.byteLength(wrapped), code), 0);
    writeFileSync(temp, Buffer.concat([head, sum, code]), { flag: 'wx', mode: 0o600 });
    renameSync(temp, file);
  } catch {
    // A full disk or a read-only folder costs the next run a compile, nothing more.
    rmQuietly(temp);
  }
}

function withLength(text: string): [Buffer, Buffer] {
  const bytes = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(LENGTH);
  length.writeUInt32LE(bytes.length, 0);
  return [length, bytes];
}

/** A left-over temporary file older than this is a writer that died before its rename. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Removes the entries of modules that no longer exist (each rebuild names its chunks anew, each
 * upgrade moves to new files) and temporary files of writers that died. Runs only after a run
 * that wrote entries, so a run served wholly from the cache never lists the folder.
 */
function pruneEntries(dir: string, keep: Set<string>): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const head = Buffer.alloc(LENGTH + 4096);
  for (const name of names) {
    const file = join(dir, name);
    if (keep.has(file)) continue;
    try {
      if (name.endsWith('.tmp')) {
        if (Date.now() - statSync(file).mtimeMs > STALE_TEMP_MS) unlinkSync(file);
        continue;
      }
      if (!name.endsWith('.v8')) continue;
      const fd = openSync(file, 'r');
      let read: number;
      try {
        read = readSync(fd, head, 0, head.length, 0);
      } finally {
        closeSync(fd);
      }
      const header = entryHeader(head.subarray(0, read));
      if (header === undefined || !existsSync(header.path)) unlinkSync(file);
    } catch {
      // Gone already (another run pruned it), or unreadable: left for the next prune.
    }
  }
}

function rmQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // never created
  }
}

/** A short, stable file name for a module path: its base name and a 32-bit FNV-1a hash. */
export function entryName(filename: string, variant?: string): string {
  const key = variant === undefined ? filename : `${filename}\0${variant}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  const tag = variant === undefined ? '' : `${variant.replace(/[^A-Za-z0-9-]/g, '-')}.`;
  return `${basename(filename)}.${tag}${h.toString(36)}.v8`;
}

const variants = new Map<string, string>();

/**
 * Keeps the entry of the module `filename` (as Node resolves it) under `variant`: one entry per
 * variant, each made by the first run of its own kind. An entry holds V8's code of the functions
 * the run that wrote it had called, and a hit is never rewritten: with one entry for
 * dist/fast-main.js, whichever of `hooks list|info|runs|events` ran first after a build decided
 * what every later run found compiled, and `hooks list` after a first `hooks events` compiled
 * its own functions again on every start (~40M instructions, a fifth of the run;
 * docs/PERFORMANCE.md). Every entry is checked as any other (source, checksum, V8's own checks).
 */
export function cacheVariant(filename: string, variant: string): void {
  variants.set(filename, variant);
}

/**
 * The exports of the CommonJS file `file`, loaded as require() would load it from `parent`, but
 * without the loader's lookup and through the cache by its bytes: read once, compared with the
 * entry's source as bytes, and made a string from ASCII bytes. For the fast path's one file
 * (src/cli/boot.ts), whose resolution, UTF-8 decoding and encoding again for the comparison cost
 * about a millisecond of every start (docs/PERFORMANCE.md). A file that is not
 * pure ASCII, or a cache that is off, is left to require(). `variant`: as cacheVariant.
 */
export function loadFromCache(parent: ModuleLike, file: string, variant?: string): unknown {
  let filename: string;
  try {
    // The key Node's loader would use: a chunk that requires the file gets this module.
    filename = realpathSync.native(file);
  } catch {
    return parent.require(file);
  }
  if (variant !== undefined) cacheVariant(filename, variant);
  if (installed === undefined) return parent.require(filename);
  const { Module, compile } = installed;
  const loaded = Module._cache[filename];
  if (loaded !== undefined) return loaded.exports;
  const mod = new Module(filename, parent);
  mod.filename = filename;
  mod.paths = Module._nodeModulePaths(dirname(filename));
  Module._cache[filename] = mod;
  let ran: Ran | undefined;
  try {
    ran = compile(mod, filename, { file: filename });
  } catch (err) {
    delete Module._cache[filename];
    throw err;
  }
  if (ran === undefined) {
    // Not pure ASCII: Node's loader reads it (and the cache serves it as any module).
    delete Module._cache[filename];
    return parent.require(filename);
  }
  mod.loaded = true;
  served = { filename, file: ran.file, hit: ran.hit, read: new Set() };
  return mod.exports;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}
