// What every text-preserving editor does around its atomic write: file system errors become one
// clear refusal, and a test can stop the process between writing the new file and renaming it.
import { ExitCode, HookctlError } from '../errors.js';
import { displayPath } from '../views/location.js';

/** File system errors while locking or writing become one clear line (`hook_write_failed`). */
export async function writeFailures<T>(file: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (err instanceof HookctlError || typeof code !== 'string') throw err;
    const where = (err as NodeJS.ErrnoException).path ?? file;
    throw new HookctlError(
      'hook_write_failed',
      `cannot write ${displayPath(file)}: ${code} (${displayPath(where)}); nothing was changed`,
      ExitCode.no,
    );
  }
}

/** Test hook: `HOOKCTL_TEST_FAULT=kill-before-rename` dies by SIGKILL with the new file written but not renamed. */
export function faultInjection(env: NodeJS.ProcessEnv): (() => void) | undefined {
  if (env.HOOKCTL_TEST_FAULT !== 'kill-before-rename') return undefined;
  return () => {
    process.kill(process.pid, 'SIGKILL');
  };
}
