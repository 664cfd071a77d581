// The answer cache of the fast path (issue 25, docs/DESIGN.md "The answer cache"). A read command
// is a function of what it reads: argv, the working directory, the environment variables it
// looks at, and the files, folders and links it asks the file system about. A run of
// `hooks list|info|runs|events` records all of these and what it printed; the next run with the
// same argv checks every one of them again, in the order the run made them, and when nothing
// differs writes the same bytes and exits with the same code, without loading the command. One
// input it cannot see (the clock, a random number, a module loaded, an fs call it does not
// record, a terminal) and the run is not kept.
//
// Two halves: what dist/cli/boot.js runs on every start (the slot, the check and the replay; it
// is compiled on every start, so it stays small) and what the fast path runs on a miss (the
// recording; dist/fast-main.js, served by the compile cache).
import {
  closeSync,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  accessSync,
  unlinkSync,
  writeFileSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { join } from 'node:path';
import { mayBeTerminal } from './output.js';

/** Bumped when an entry's layout or the meaning of an observation changes. */
const FORMAT = 1;
/** A run that read more than this (files and reads) is not kept: its entry would cost a hit more than the run. */
const MAX_OBSERVED_BYTES = 1 << 20;
/** Entries kept in the folder; the oldest go when a write passes it. */
const MAX_ENTRIES = 256;

/** Where a run's answer is looked up and, on a miss, kept. */
export interface AnswerSlot {
  file: string;
  key: string;
  /** How many modules are loaded (Module._cache): one loaded during a run may read what is not watched. */
  modules: () => number;
}

/** A result as it is compared: a value, or the error's code. */
type Outcome = unknown;

/**
 * One observation, in the order the run made it:
 * `r` readFileSync, `s` statSync, `l` lstatSync, `e` existsSync, `d` readdirSync (1: with types),
 * `p` realpathSync (1: .native), `a` accessSync (mode), `k` readlinkSync,
 * `o` openSync for reading (id), `R` readSync (id, position, length asked, bytes read), `F` fstatSync (id), `C` closeSync (id).
 */
type Observation =
  | ['r', string, Outcome]
  | ['s' | 'l' | 'k' | 'e', string, Outcome]
  | ['d' | 'p' | 'a', string, number, Outcome]
  | ['o', number, string, Outcome]
  | ['R', number, number, number, string]
  | ['F', number, Outcome]
  | ['C', number];

interface Entry {
  key: string;
  /** Variables read: [name, value or null when unset]; or, when the run listed them, all of them. */
  env: [string, string | null][];
  allEnv: boolean;
  ops: Observation[];
  /** What was written, in order: [descriptor, text]. */
  out: [1 | 2, string][];
  exit: number;
}

// ---- on every start (dist/cli/boot.js) ----

/**
 * The slot of this invocation, or undefined when its answer may not be cached: the cache folder
 * is off, a descriptor is a terminal (its width and colour are read from it), or
 * HOOKCTL_NO_ANSWER_CACHE is set.
 */
export function answerSlot(
  dir: string,
  argv: readonly string[],
  root: string,
  crc32: (data: Buffer) => number,
  moduleCache: Record<string, unknown>,
): AnswerSlot | undefined {
  const off = process.env.HOOKCTL_NO_ANSWER_CACHE;
  if ((off !== undefined && off !== '') || mayBeTerminal(1) !== false || mayBeTerminal(2) !== false) return undefined;
  let key: string;
  try {
    const build = statSync(join(root, 'dist', 'fast-main.js'));
    key = JSON.stringify([
      FORMAT,
      root,
      statSignature(build),
      argv,
      process.cwd(),
      process.getuid?.() ?? null,
      process.getgid?.() ?? null,
      process.execPath,
      process.execArgv,
      nodeVariables(),
      process.version,
      process.arch,
    ]);
  } catch {
    return undefined;
  }
  return {
    file: join(dir, `answer-${crc32(Buffer.from(key)).toString(36)}.json`),
    key,
    modules: () => Object.keys(moduleCache).length,
  };
}

/**
 * NODE_OPTIONS, NODE_ICU_DATA and the rest: Node reads them at start-up, past process.env (a
 * --require'd script can change anything), so they are part of the key, whatever the run read.
 */
function nodeVariables(): [string, string | undefined][] {
  const env = process.env;
  return Object.keys(env)
    .filter((name) => name.startsWith('NODE_'))
    .sort()
    .map((name) => [name, env[name]]);
}

/** Writes the slot's answer and sets the exit code when every input it read is unchanged. */
export function serveAnswer(slot: AnswerSlot, write: (fd: 1 | 2, text: string) => void): boolean {
  let entry: Entry;
  try {
    entry = JSON.parse(readFileSync(slot.file, 'utf8')) as Entry;
  } catch {
    return false; // none yet, or torn: the run makes it again
  }
  if (entry.key !== slot.key || !sameEnv(entry) || !sameObservations(entry.ops)) return false;
  for (const [fd, text] of entry.out) write(fd, text);
  if (entry.exit !== 0) process.exitCode = entry.exit;
  return true;
}

function sameEnv(entry: Entry): boolean {
  const env = process.env;
  if (entry.allEnv && Object.keys(env).length !== entry.env.length) return false;
  for (const [name, value] of entry.env) if ((env[name] ?? null) !== value) return false;
  return true;
}

function sameObservations(ops: readonly Observation[]): boolean {
  const fds = new Map<number, number>();
  try {
    for (const op of ops) if (!observedAgain(op, fds)) return false;
    return true;
  } finally {
    for (const fd of fds.values()) closeQuietly(fd);
  }
}

function observedAgain(op: Observation, fds: Map<number, number>): boolean {
  switch (op[0]) {
    case 'r': {
      const now = outcome(() => readFileSync(op[1]));
      return Buffer.isBuffer(now) ? sameBytes(now, op[2]) : same(now, op[2]);
    }
    case 's':
      return same(
        outcome(() => statSignature(statSync(op[1]))),
        op[2],
      );
    case 'l':
      return same(
        outcome(() => statSignature(lstatSync(op[1]))),
        op[2],
      );
    case 'e':
      return existsSync(op[1]) === op[2];
    case 'k':
      return same(
        outcome(() => readlinkSync(op[1])),
        op[2],
      );
    case 'd':
      return same(
        outcome(() => listing(op[2] === 1 ? readdirSync(op[1], { withFileTypes: true }) : readdirSync(op[1]))),
        op[3],
      );
    case 'p':
      return same(
        outcome(() => (op[2] === 1 ? realpathSync.native(op[1]) : realpathSync(op[1]))),
        op[3],
      );
    case 'a':
      return same(
        outcome(() => (accessSync(op[1], op[2]), 'ok')),
        op[3],
      );
    case 'o': {
      const now = outcome(() => openSync(op[2], 'r'));
      if (typeof now === 'number') fds.set(op[1], now);
      return typeof now === 'number' ? op[3] === 'ok' : same(now, op[3]);
    }
    case 'R': {
      const fd = fds.get(op[1]);
      if (fd === undefined) return false;
      const want = Buffer.from(op[4], 'base64');
      const got = Buffer.alloc(op[3]);
      const n = outcome(() => readSync(fd, got, 0, op[3], op[2]));
      return n === want.length && got.subarray(0, want.length).equals(want);
    }
    case 'F': {
      const fd = fds.get(op[1]);
      return (
        fd !== undefined &&
        same(
          outcome(() => statSignature(fstatSync(fd))),
          op[2],
        )
      );
    }
    case 'C': {
      const fd = fds.get(op[1]);
      if (fd !== undefined) closeQuietly(fd);
      fds.delete(op[1]);
      return true;
    }
    default:
      return false;
  }
}

/** What `f` returns, or `{ e: code }` for what it throws. */
function outcome(f: () => unknown): unknown {
  try {
    return f();
  } catch (err) {
    return { e: (err as NodeJS.ErrnoException).code ?? '?' };
  }
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A file's bytes against a recorded read (`{ t }` UTF-8 text, `{ b }` base64, or an error). */
function sameBytes(now: Buffer, recorded: unknown): boolean {
  if (recorded === null || typeof recorded !== 'object') return false;
  const r = recorded as { t?: string; b?: string };
  if (typeof r.t === 'string') return now.equals(Buffer.from(r.t));
  return typeof r.b === 'string' && now.equals(Buffer.from(r.b, 'base64'));
}

/** What a stat says of a file, less its access time (reading a file changes that). */
export function statSignature(st: Stats): number[] {
  return [st.dev, st.ino, st.mode, st.nlink, st.uid, st.gid, st.rdev, st.size, st.mtimeMs, st.ctimeMs];
}

/** A folder's listing as compared: names, or [name, type] with types. */
export function listing(entries: readonly (string | Dirent)[]): unknown[] {
  return entries.map((e) => (typeof e === 'string' ? e : [e.name, direntType(e)]));
}

function direntType(e: Dirent): string {
  if (e.isFile()) return 'f';
  if (e.isDirectory()) return 'd';
  if (e.isSymbolicLink()) return 'l';
  return 'o';
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Closed already.
  }
}

// ---- on a miss (dist/fast-main.js) ----

type Fs = typeof import('node:fs');
type AnyFunction = (...args: unknown[]) => unknown;

/** A run being recorded: stop() puts everything back and says whether the run may be kept. */
export interface AnswerRecording {
  /** Hears what the command writes (src/cli/output.ts). */
  wrote(fd: 1 | 2, text: string): void;
  /** Ends the recording and keeps the answer when the run saw nothing it cannot record. */
  finish(kept: boolean, exitCode: number): void;
}

/**
 * Starts recording the run's inputs: the file system's functions, process.env, the clock and
 * the standard streams are watched until finish(). Undefined when this Node cannot hand out the
 * file system module itself (process.getBuiltinModule, Node 20.16).
 */
export function recordAnswer(slot: AnswerSlot): AnswerRecording | undefined {
  const getBuiltin = (process as unknown as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof getBuiltin !== 'function') return undefined;
  const fs = getBuiltin('node:fs') as Fs & Record<string, unknown>;
  const ops: Observation[] = [];
  // Once the run cannot be kept, nothing more is noted: what it reads need not be held.
  const noteOp = (op: Observation) => {
    if (unseen === undefined) ops.push(op);
  };
  const envRead = new Map<string, string | null>();
  let allEnv = false;
  const out: [1 | 2, string][] = [];
  let unseen: string | undefined; // the first input the recording cannot see
  let bytes = 0;
  let written = 0;
  const taint = (what: string) => {
    unseen ??= what;
    ops.length = 0; // nothing of the run is kept now: what it read need not be held
    out.length = 0;
  };
  const restore: (() => void)[] = [];
  const replace = (target: Record<string, unknown>, name: string, value: unknown) => {
    const own = Object.getOwnPropertyDescriptor(target, name);
    Object.defineProperty(target, name, {
      value,
      writable: true,
      configurable: true,
      enumerable: own?.enumerable ?? true,
    });
    restore.push(() => (own ? Object.defineProperty(target, name, own) : delete target[name]));
  };
  const errorOutcome = (err: unknown, name: string) => {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code !== 'string') taint(name);
    return { e: code ?? '?' };
  };
  /** Calls `f`, notes what came of it (a value as `seen` makes it, or the error), and returns or throws as `f` did. */
  const observe = <T>(name: string, f: () => T, note: (result: Outcome) => void, seen: (value: T) => Outcome): T => {
    let value: T;
    try {
      value = f();
    } catch (err) {
      note(errorOutcome(err, name));
      throw err;
    }
    note(seen(value));
    return value;
  };
  const original = <K extends keyof Fs>(name: K) => fs[name] as unknown as AnyFunction;
  const orig = {
    readFileSync: original('readFileSync'),
    statSync: original('statSync'),
    lstatSync: original('lstatSync'),
    existsSync: original('existsSync'),
    readdirSync: original('readdirSync'),
    realpathSync: original('realpathSync'),
    realpathNative: (fs.realpathSync as unknown as { native: AnyFunction }).native,
    accessSync: original('accessSync'),
    readlinkSync: original('readlinkSync'),
    openSync: original('openSync'),
    readSync: original('readSync'),
    fstatSync: original('fstatSync'),
    closeSync: original('closeSync'),
  };
  const opened = new Map<number, { id: number; position: number }>();
  let ids = 0;
  const stdio = (fd: unknown) => fd === 1 || fd === 2;
  const plainPath = (path: unknown, name: string): path is string => {
    if (typeof path === 'string') return true;
    taint(name);
    return false;
  };
  const statOf = (tag: 's' | 'l', name: 'statSync' | 'lstatSync') =>
    function (this: unknown, path: unknown, opts?: unknown) {
      const options = opts as { bigint?: boolean; throwIfNoEntry?: boolean } | undefined;
      if (!plainPath(path, name) || options?.bigint) {
        taint(name);
        return orig[name].call(this, path, options);
      }
      return observe(
        name,
        () => orig[name].call(this, path, options) as Stats | undefined,
        (r) => noteOp([tag, path, r]),
        (st) => (st === undefined ? { e: 'ENOENT' } : statSignature(st)),
      );
    };
  const realpathOf = (native: 0 | 1) =>
    function (this: unknown, path: unknown, options?: unknown) {
      const f = native ? orig.realpathNative : orig.realpathSync;
      if (!plainPath(path, 'realpathSync') || (options !== undefined && options !== 'utf8')) {
        taint('realpathSync');
        return f.call(this, path, options);
      }
      return observe(
        'realpathSync',
        () => f.call(this, path, options),
        (r) => noteOp(['p', path, native, r]),
        (v) => v,
      );
    };
  const watched: Record<string, AnyFunction> = {
    readFileSync(path: unknown, options?: unknown) {
      const o = options as { encoding?: BufferEncoding | null; flag?: string } | BufferEncoding | undefined;
      const encoding = typeof o === 'string' ? o : (o?.encoding ?? undefined);
      if (!plainPath(path, 'readFileSync') || (typeof o === 'object' && o?.flag !== undefined && o.flag !== 'r')) {
        taint('readFileSync');
        return orig.readFileSync(path, options);
      }
      const data = observe(
        'readFileSync',
        () => orig.readFileSync(path) as Buffer,
        (r) => noteOp(['r', path, r]),
        (b) => {
          bytes += b.length;
          if (bytes > MAX_OBSERVED_BYTES) taint('more read than an entry holds');
          return isUtf8(b) ? { t: b.toString() } : { b: b.toString('base64') };
        },
      );
      return encoding ? data.toString(encoding) : data;
    },
    statSync: statOf('s', 'statSync'),
    lstatSync: statOf('l', 'lstatSync'),
    existsSync(path: unknown) {
      const found = orig.existsSync(path) as boolean;
      if (plainPath(path, 'existsSync')) noteOp(['e', path, found]);
      return found;
    },
    readdirSync(path: unknown, options?: unknown) {
      const o = options as { withFileTypes?: boolean; recursive?: boolean; encoding?: string } | string | undefined;
      const plain =
        o === undefined || o === 'utf8' || (typeof o === 'object' && !o.recursive && (o.encoding ?? 'utf8') === 'utf8');
      if (!plainPath(path, 'readdirSync') || !plain) {
        taint('readdirSync');
        return orig.readdirSync(path, options);
      }
      const types = typeof o === 'object' && o.withFileTypes === true ? 1 : 0;
      return observe(
        'readdirSync',
        () => orig.readdirSync(path, options) as (string | Dirent)[],
        (r) => noteOp(['d', path, types, r]),
        listing,
      );
    },
    realpathSync: Object.assign(realpathOf(0), { native: realpathOf(1) }),
    accessSync(path: unknown, mode?: unknown) {
      if (!plainPath(path, 'accessSync') || (mode !== undefined && typeof mode !== 'number')) {
        taint('accessSync');
        return orig.accessSync(path, mode);
      }
      const m = (mode as number | undefined) ?? fs.constants.F_OK;
      return observe(
        'accessSync',
        () => orig.accessSync(path, mode),
        (r) => noteOp(['a', path, m, r]),
        () => 'ok',
      );
    },
    readlinkSync(path: unknown, options?: unknown) {
      if (!plainPath(path, 'readlinkSync') || options !== undefined) {
        taint('readlinkSync');
        return orig.readlinkSync(path, options);
      }
      return observe(
        'readlinkSync',
        () => orig.readlinkSync(path),
        (r) => noteOp(['k', path, r]),
        (v) => v,
      );
    },
    openSync(path: unknown, flags?: unknown, mode?: unknown) {
      if (!plainPath(path, 'openSync') || !(flags === undefined || flags === 'r' || flags === fs.constants.O_RDONLY)) {
        taint('openSync');
        return orig.openSync(path, flags, mode);
      }
      const id = ids++;
      const fd = observe(
        'openSync',
        () => orig.openSync(path, flags, mode) as number,
        (r) => noteOp(['o', id, path, r]),
        () => 'ok',
      );
      opened.set(fd, { id, position: 0 });
      return fd;
    },
    readSync(fd: unknown, buffer: unknown, offset?: unknown, length?: unknown, position?: unknown) {
      const file = typeof fd === 'number' ? opened.get(fd) : undefined;
      const numeric =
        typeof offset === 'number' &&
        typeof length === 'number' &&
        (position === undefined || position === null || typeof position === 'number') &&
        ArrayBuffer.isView(buffer);
      if (file === undefined || !numeric) {
        taint('readSync');
        return orig.readSync(fd, buffer, offset, length, position);
      }
      const at = typeof position === 'number' && position >= 0 ? position : file.position;
      const n = orig.readSync(fd, buffer, offset, length, position) as number;
      if (!(typeof position === 'number' && position >= 0)) file.position += n;
      const view = buffer as Uint8Array;
      const read = Buffer.from(view.buffer, view.byteOffset + offset, n);
      bytes += n;
      if (bytes > MAX_OBSERVED_BYTES) taint('more read than an entry holds');
      noteOp(['R', file.id, at, length, unseen === undefined ? read.toString('base64') : '']);
      return n;
    },
    fstatSync(fd: unknown, opts?: unknown) {
      const options = opts as { bigint?: boolean } | undefined;
      if (stdio(fd)) return orig.fstatSync(fd, options); // the slot's precondition: not a terminal
      const file = typeof fd === 'number' ? opened.get(fd) : undefined;
      if (file === undefined || options?.bigint) {
        taint('fstatSync');
        return orig.fstatSync(fd, options);
      }
      return observe(
        'fstatSync',
        () => orig.fstatSync(fd) as Stats,
        (r) => noteOp(['F', file.id, r]),
        statSignature,
      );
    },
    closeSync(fd: unknown) {
      const file = typeof fd === 'number' ? opened.get(fd) : undefined;
      if (file === undefined) taint('closeSync');
      else {
        opened.delete(fd as number);
        noteOp(['C', file.id]);
      }
      return orig.closeSync(fd);
    },
  };
  const fsTarget = fs as unknown as Record<string, unknown>;
  for (const name of Object.keys(fs)) {
    // The descriptor, not the value: reading `promises` would load node:fs/promises.
    const value = Object.getOwnPropertyDescriptor(fs, name)?.value as unknown;
    if (Object.hasOwn(watched, name)) replace(fsTarget, name, watched[name]);
    else if (typeof value === 'function' && /^[a-z]/.test(name) && name !== 'writeSync') {
      const f = value as AnyFunction;
      replace(fsTarget, name, function (this: unknown, ...args: unknown[]) {
        taint(name);
        return f.apply(this, args);
      });
    }
  }
  // output.ts writes fds 1 and 2 with writeSync (heard through wrote()); anything else is unseen.
  const writeSync = fs.writeSync as unknown as AnyFunction;
  replace(fsTarget, 'writeSync', function (this: unknown, fd: unknown, ...rest: unknown[]) {
    if (!stdio(fd)) taint('writeSync');
    return writeSync.call(this, fd, ...rest);
  });
  const promises = Object.getOwnPropertyDescriptor(fs, 'promises');
  if (promises?.configurable) {
    Object.defineProperty(fs, 'promises', {
      ...promises,
      get() {
        taint('fs.promises');
        return promises.get ? promises.get.call(fs) : promises.value;
      },
    });
    restore.push(() => Object.defineProperty(fs, 'promises', promises));
  }

  const env = process.env;
  const note = (name: string | symbol) => {
    if (typeof name === 'string' && !envRead.has(name)) envRead.set(name, env[name] ?? null);
  };
  process.env = new Proxy(env, {
    get: (t, name) => (note(name), Reflect.get(t, name)),
    has: (t, name) => (note(name), Reflect.has(t, name)),
    getOwnPropertyDescriptor: (t, name) => (note(name), Reflect.getOwnPropertyDescriptor(t, name)),
    ownKeys: (t) => ((allEnv = true), Reflect.ownKeys(t)),
    set: (t, name, value) => (taint('process.env set'), Reflect.set(t, name, value)),
    deleteProperty: (t, name) => (taint('process.env delete'), Reflect.deleteProperty(t, name)),
  });
  restore.push(() => (process.env = env));

  // The clock and chance: `new Date()` and Date.now() are "now"; a date from a value is not.
  const RealDate = Date;
  const now = Date.now;
  RealDate.now = () => (taint('Date.now'), now());
  restore.push(() => (RealDate.now = now));
  globalThis.Date = new Proxy(RealDate, {
    construct: (t, args, target) => (args.length === 0 && taint('new Date()'), Reflect.construct(t, args, target)),
    apply: (t, self, args) => (taint('Date()'), Reflect.apply(t, self, args)),
  });
  restore.push(() => (globalThis.Date = RealDate));
  // Local time depends on TZ and /etc/localtime, which Node reads past process.env.
  const proto = RealDate.prototype as unknown as Record<string, unknown>;
  for (const name of LOCAL_TIME) {
    const f = proto[name] as AnyFunction;
    replace(proto, name, function (this: unknown, ...args: unknown[]) {
      taint(`Date#${name}`);
      return f.apply(this, args);
    });
  }
  // node:os answers from the system, not from anything recorded (homedir() without HOME, tmpdir()).
  // Watched only when loaded already: loading it would cost the run; loaded later, it is a builtin
  // loaded during the run (below).
  const os = (loadedBuiltins().includes('NativeModule os') ? getBuiltin('node:os') : {}) as Record<string, unknown>;
  for (const name of Object.keys(os)) {
    const f = Object.getOwnPropertyDescriptor(os, name)?.value as unknown;
    if (typeof f !== 'function') continue;
    replace(os, name, function (this: unknown, ...args: unknown[]) {
      taint(`os.${name}`);
      return (f as AnyFunction).apply(this, args);
    });
  }
  const random = Math.random;
  Math.random = () => (taint('Math.random'), random());
  restore.push(() => (Math.random = random));
  for (const name of ['stdin', 'stdout', 'stderr'] as const) {
    const own = Object.getOwnPropertyDescriptor(process, name);
    if (own?.get === undefined || !own.configurable) continue;
    Object.defineProperty(process, name, {
      ...own,
      get() {
        taint(`process.${name}`);
        return own.get!.call(process);
      },
    });
    restore.push(() => Object.defineProperty(process, name, own));
  }
  // A module loaded during the run (a lazily loaded part of hookctl, a builtin such as
  // node:fs/promises or node:child_process) may read what is not watched.
  const modules = slot.modules();
  const builtins = loadedBuiltins().length;

  return {
    wrote(fd, text) {
      written += text.length;
      if (written > MAX_OBSERVED_BYTES) taint('more printed than an entry holds');
      if (unseen === undefined) out.push([fd, text]);
    },
    finish(kept, exitCode) {
      for (const undo of restore.reverse()) undo();
      if (slot.modules() !== modules || loadedBuiltins().length !== builtins) taint('a module loaded');
      if (opened.size > 0) taint('a file left open');
      if (!kept || unseen !== undefined) return;
      const names = allEnv ? Object.keys(env) : [...envRead.keys()];
      const entry: Entry = {
        key: slot.key,
        env: names.map((name) => [name, env[name] ?? null]),
        allEnv,
        ops,
        out,
        exit: exitCode,
      };
      writeAnswer(slot, entry);
    },
  };
}

const LOCAL_TIME = [
  'getFullYear',
  'getMonth',
  'getDate',
  'getDay',
  'getHours',
  'getMinutes',
  'getSeconds',
  'getMilliseconds',
  'getTimezoneOffset',
  'toString',
  'toDateString',
  'toTimeString',
  'toLocaleString',
  'toLocaleDateString',
  'toLocaleTimeString',
];

/** Node's list of the builtin modules loaded so far ("NativeModule fs", ...). */
function loadedBuiltins(): readonly string[] {
  return (process as unknown as { moduleLoadList?: string[] }).moduleLoadList ?? [];
}

/** Written whole or not at all (a temporary file renamed over the entry), never through a link. */
function writeAnswer(slot: AnswerSlot, entry: Entry): void {
  const temp = `${slot.file}.${process.pid}.tmp`;
  try {
    if (lstatSync(slot.file, { throwIfNoEntry: false })?.isSymbolicLink()) return;
    writeFileSync(temp, JSON.stringify(entry), { flag: 'wx', mode: 0o600 });
    renameSync(temp, slot.file);
    pruneAnswers(join(slot.file, '..'));
  } catch {
    // A full disk or a read-only folder: the next run records again.
    try {
      unlinkSync(temp);
    } catch {
      // Never made.
    }
  }
}

/** Past MAX_ENTRIES, the least recently written entries go (a quarter of the bound at once). */
function pruneAnswers(dir: string): void {
  const names = readdirSync(dir).filter((n) => n.startsWith('answer-') && n.endsWith('.json'));
  if (names.length <= MAX_ENTRIES) return;
  const aged = names
    .map((n) => ({ file: join(dir, n), mtime: statSync(join(dir, n), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => a.mtime - b.mtime);
  for (const { file } of aged.slice(0, names.length - (MAX_ENTRIES * 3) / 4)) {
    try {
      unlinkSync(file);
    } catch {
      // Another run pruned it.
    }
  }
}
