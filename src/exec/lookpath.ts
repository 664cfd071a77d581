// Command resolution as Go's `exec.LookPath` does it on Unix (SPEC §3.4), so a hook that the
// runtime would refuse to start is refused here too, with Go's words.
// Synchronous on purpose: each check is one microsecond system call, where the promise API pays a
// thread-pool round trip per call on every hook of a dispatch (docs/PERFORMANCE.md).
import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

export type LookPathResult = { path: string } | { error: string };

/** Go's exec.ErrNotFound text. */
export const NOT_FOUND = 'executable file not found in $PATH';
/** Go's exec.ErrDot text (Go ≥ 1.19): a match through a relative PATH entry is not run. */
export const FOUND_RELATIVE = 'cannot run executable found relative to current directory';

/**
 * Resolve `cmd` like Go's exec.LookPath.
 * - A name with a `/` is used as is (relative to `cwd`); it must be an executable regular file.
 * - A bare name searches `pathEnv` entries in order; an empty entry means "."; the first
 *   executable match wins, and a match reached through a relative entry is refused.
 */
export function lookPath(cmd: string, pathEnv: string | undefined, cwd: string): LookPathResult {
  // Hundreds of hooks of one dispatch often share a command, PATH and folder: one search each.
  const key = `${cmd}\0${pathEnv ?? ''}\0${cwd}`;
  let result = resultCache.get(key);
  if (result === undefined) {
    result = search(cmd, pathEnv, cwd);
    resultCache.set(key, result);
  }
  return result;
}

function search(cmd: string, pathEnv: string | undefined, cwd: string): LookPathResult {
  if (cmd.includes('/')) {
    const failure = findExecutable(resolve(cwd, cmd));
    return failure === undefined ? { path: cmd } : { error: failureText(failure, cmd) };
  }
  for (const entry of splitPathList(pathEnv ?? '')) {
    const candidate = join(entry === '' ? '.' : entry, cmd);
    if (findExecutable(resolve(cwd, candidate)) !== undefined) continue;
    if (!isAbsolute(candidate)) return { error: FOUND_RELATIVE };
    return { path: candidate };
  }
  return { error: NOT_FOUND };
}

/** Go's filepath.SplitList on Unix: "" is no entries at all, otherwise split on ":". */
function splitPathList(pathEnv: string): string[] {
  return pathEnv === '' ? [] : pathEnv.split(':');
}

// A dispatch may resolve the same command for every one of hundreds of hooks; the files do not
// change while one hookctl process runs, so each absolute path is checked once.
const findCache = new Map<string, FindFailure | undefined>();
const resultCache = new Map<string, LookPathResult>();

/** Forget cached checks (tests that change files between resolutions). */
export function clearLookPathCache(): void {
  findCache.clear();
  resultCache.clear();
}

/** Why findExecutable refused a file: a failed stat, or the file itself (directory, no x bit). */
interface FindFailure {
  stat: boolean;
  code: string | undefined;
}

/** Go's error text: `stat <name>: <errno>` for a failed stat, else the bare errno text. */
function failureText(failure: FindFailure, name: string): string {
  return failure.stat ? `stat ${name}: ${errnoText(failure.code)}` : errnoText(failure.code);
}

/** Go's findExecutable: undefined when `file` is an executable regular file, else why not. */
function findExecutable(file: string): FindFailure | undefined {
  if (findCache.has(file)) return findCache.get(file);
  const verdict = checkExecutable(file);
  findCache.set(file, verdict);
  return verdict;
}

function checkExecutable(file: string): FindFailure | undefined {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(file).isDirectory();
  } catch (err) {
    return { stat: true, code: (err as NodeJS.ErrnoException).code };
  }
  if (isDirectory) return { stat: false, code: 'EISDIR' };
  try {
    accessSync(file, constants.X_OK);
    return undefined;
  } catch (err) {
    return { stat: false, code: (err as NodeJS.ErrnoException).code };
  }
}

/** Go's (strerror-derived) texts for the errno values a stat can give. */
export function errnoText(code: string | undefined): string {
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'ENOTDIR':
      return 'not a directory';
    case 'EACCES':
      return 'permission denied';
    case 'EPERM':
      return 'operation not permitted';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    case 'ENAMETOOLONG':
      return 'file name too long';
    case 'ENOEXEC':
      return 'exec format error';
    case 'EISDIR':
      return 'is a directory';
    case 'ETXTBSY':
      return 'text file busy';
    case 'E2BIG':
      return 'argument list too long';
    case 'ENOMEM':
      return 'cannot allocate memory';
    case 'EMFILE':
      return 'too many open files';
    case 'EAGAIN':
      return 'resource temporarily unavailable';
    default:
      return code === undefined ? 'unknown error' : code.toLowerCase();
  }
}
