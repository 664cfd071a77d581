// Reading what hooks wrote to an env file they were handed (claude CLAUDE_ENV_FILE, codex
// CODEX_ENV_FILE; `env_exports` of a fire), within bounds: a hook owns the file, so it can make it
// huge, or a link to an endless device. Dialect-neutral: each dialect names the variable.
import { constants, statSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** At most this much of one hook's env file is read (the bound of a hook's stdout). */
export const ENV_FILE_LIMIT_BYTES = 1024 * 1024;
/** At most this many `env_exports` lines per dispatch, and this many bytes of them in all. */
export const ENV_EXPORTS_MAX_LINES = 10_000;
export const ENV_EXPORTS_LIMIT_BYTES = 1024 * 1024;

export interface EnvFileRead {
  /** Non-blank lines, whole lines only. */
  lines: string[];
  /** Why some or all of the file was not read, for a warning; undefined when it was read whole. */
  problem?: string;
}

/**
 * The non-blank lines of `file`, reading at most `limit` bytes. A file that is not a regular
 * file once opened (a link to /dev/zero, a FIFO, a folder) is not read; past the limit the last,
 * partial line is dropped.
 */
export async function readEnvFile(file: string, limit = ENV_FILE_LIMIT_BYTES): Promise<EnvFileRead> {
  let handle;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return { lines: [] }; // gone: the hook removed it, nothing was exported
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { lines: [], problem: 'it is not a regular file; not read' };
    const buffer = Buffer.alloc(Math.min(limit, Math.max(0, stat.size)) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    let text = buffer.toString('utf8', 0, Math.min(length, limit));
    let problem: string | undefined;
    if (length > limit) {
      const end = text.lastIndexOf('\n');
      text = end === -1 ? '' : text.slice(0, end);
      problem = `it holds more than ${limit} bytes; only the lines within the first ${limit} were read`;
    }
    const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
    return problem === undefined ? { lines } : { lines, problem };
  } catch (e) {
    return { lines: [], problem: `cannot read it: ${(e as NodeJS.ErrnoException).code ?? String(e)}` };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Keeps `env_exports` within its bounds; `add` says false once the bound is met. */
export class EnvExports {
  readonly entries: { hook: string; line: string }[] = [];
  dropped = 0;
  private bytes = 0;

  add(hook: string, line: string): void {
    const size = Buffer.byteLength(line);
    if (this.entries.length >= ENV_EXPORTS_MAX_LINES || this.bytes + size > ENV_EXPORTS_LIMIT_BYTES) {
      this.dropped++;
      return;
    }
    this.bytes += size;
    this.entries.push({ hook, line });
  }
}

/**
 * The `env_exports` of a dispatch: every non-blank line each hook wrote to its env file, in the
 * order given (declaration order), within the dispatch's bounds; a warning per file that could not
 * be read whole (`<hook>: <variable>: …`) and one for the lines left out.
 */
export async function collectEnvExports(
  files: readonly { hook: string; file: string }[],
  variable: string,
): Promise<{ entries: { hook: string; line: string }[]; warnings: string[] }> {
  const exports = new EnvExports();
  const warnings: string[] = [];
  for (const { hook, file } of files) {
    const read = await readEnvFile(file);
    if (read.problem !== undefined) warnings.push(`${hook}: ${variable}: ${read.problem}`);
    for (const line of read.lines) exports.add(hook, line);
  }
  if (exports.dropped > 0) {
    const lines = exports.dropped === 1 ? 'line' : 'lines';
    warnings.push(
      `env_exports: ${exports.dropped} more ${lines} not reported (at most ${ENV_EXPORTS_MAX_LINES} lines and ${ENV_EXPORTS_LIMIT_BYTES} bytes per dispatch)`,
    );
  }
  return { entries: exports.entries, warnings };
}

/** A hook's working folder: `cwd` when it names an existing folder, else `fallback`. */
export function existingFolderOr(cwd: unknown, fallback: string): string {
  if (typeof cwd === 'string' && cwd !== '') {
    try {
      if (statSync(cwd).isDirectory()) return cwd;
    } catch {
      // gone or never there
    }
  }
  return fallback;
}
