// Where a command's output goes. Run through bin/run.js (runCli), text is written straight to
// file descriptors 1 and 2 with writeSync: creating process.stdout for a pipe loads Node's
// stream and net modules and builds a socket, which cost about a fifth of `node -e 0` on every
// start (issue 18, docs/PERFORMANCE.md), for writes that Node makes synchronous on pipes, files
// and terminals anyway. A command class run in-process (as tests do) keeps writing through
// process.stdout and process.stderr.
//
// A descriptor that is non-blocking (EAGAIN) hands the rest of the output to Node's stream,
// which waits for the reader; a reader that has gone away (EPIPE, `hookctl … | head`) ends the
// output quietly, as it did through the stream.
import { fstatSync, statSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';

type Fd = 1 | 2;

let direct = false;
/** Per descriptor: the stream has taken over (EAGAIN), or the reader is gone (EPIPE). */
const handedToStream: Record<Fd, boolean> = { 1: false, 2: false };
const readerGone: Record<Fd, boolean> = { 1: false, 2: false };

/** From now on, write to the descriptors (bin/run.js's runCli calls this first). */
export function writeToDescriptors(): void {
  direct = true;
  deferStdoutStream();
}

/**
 * oclif's command.js, at load, adds an 'error' listener to process.stdout (to swallow EPIPE),
 * which alone would create the stream. Until anything else touches it, process.stdout is a
 * stand-in that keeps such listeners; the first other use creates the real stream, hands it the
 * listeners and puts Node's own process.stdout back.
 */
function deferStdoutStream(): void {
  const own = Object.getOwnPropertyDescriptor(process, 'stdout');
  if (own?.get === undefined || !own.configurable) return;
  const listeners: [string, (...args: unknown[]) => void][] = [];
  let real: NodeJS.WriteStream | undefined;
  const materialise = (): NodeJS.WriteStream => {
    if (real === undefined) {
      Object.defineProperty(process, 'stdout', own);
      real = own.get!.call(process) as NodeJS.WriteStream;
      for (const [event, listener] of listeners) real.on(event, listener);
    }
    return real;
  };
  const keep = (event: string, listener: (...args: unknown[]) => void) => {
    if (real !== undefined || event !== 'error') return materialise().on(event, listener);
    listeners.push([event, listener]);
    return standIn;
  };
  const standIn: NodeJS.WriteStream = new Proxy({} as NodeJS.WriteStream, {
    get: (_, key) => {
      if (real === undefined && (key === 'on' || key === 'addListener')) return keep;
      const stream = materialise();
      const value = Reflect.get(stream, key, stream) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(stream) : value;
    },
    set: (_, key, value) => Reflect.set(materialise(), key, value),
    has: (_, key) => Reflect.has(materialise(), key),
  });
  Object.defineProperty(process, 'stdout', {
    configurable: true,
    enumerable: own.enumerable ?? true,
    get: () => real ?? standIn,
  });
}

let heard: ((fd: Fd, text: string) => void) | undefined;

/** `listener` hears every text written from now on, in order (the answer cache, src/cli/answer-cache.ts). */
export function hearWrites(listener: ((fd: Fd, text: string) => void) | undefined): void {
  heard = listener;
}

export function writeOut(text: string): void {
  write(1, text);
}

export function writeErr(text: string): void {
  write(2, text);
}

/** Whether stdout went through process.stdout, a stream that may still hold data to flush. */
export function stdoutStreamUsed(): boolean {
  return !direct || handedToStream[1];
}

/** Whether stdout is a terminal, without creating process.stdout for a pipe or a file. */
export function stdoutIsTTY(): boolean {
  if (!direct) return Boolean(process.stdout.isTTY);
  if (mayBeTerminal(1) !== true) return false;
  // A terminal: ask the tty module (it loads net; loaded only here).
  // The require is made here too: createRequire(import.meta.url) at load was ~1M instructions of
  // every start (a file URL made and parsed), for a module only a terminal needs.
  return (createRequire(import.meta.url)('node:tty') as typeof import('node:tty')).isatty(1);
}

/**
 * false for a pipe, a file, a socket or `> /dev/null`; true for another character device (a
 * terminal, as far as fstat tells); undefined for a descriptor that is not open. No tty module.
 */
export function mayBeTerminal(fd: number): boolean | undefined {
  try {
    const st = fstatSync(fd);
    return st.isCharacterDevice() && st.rdev !== statSync('/dev/null', { throwIfNoEntry: false })?.rdev;
  } catch {
    return undefined;
  }
}

function write(fd: Fd, text: string): void {
  heard?.(fd, text);
  if (!direct || handedToStream[fd]) {
    streamOf(fd).write(text);
    return;
  }
  if (readerGone[fd] || text === '') return;
  const bytes = Buffer.from(text); // UTF-8; naming it would call Node's encoding lookup, compiled on every start
  let at = 0;
  while (at < bytes.length) {
    try {
      at += writeSync(fd, bytes, at);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        handedToStream[fd] = true;
        streamOf(fd).write(bytes.subarray(at));
        return;
      }
      if (code === 'EPIPE') {
        readerGone[fd] = true;
        return;
      }
      throw err;
    }
  }
}

const streamOf = (fd: Fd): NodeJS.WriteStream => (fd === 1 ? process.stdout : process.stderr);
