// The executor's additions for the claude dialect: per-request capture limits and stderr text
// returned only to a caller that asks for it.
import { beforeAll, describe, expect, it } from 'vitest';
import { runSubprocess } from '../../src/exec/subprocess.js';
import type { ExecRequest } from '../../src/exec/types.js';
import { tempDir } from '../support/temp.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('hookctl-claude-exec-');
});

function sh(script: string, over: Partial<ExecRequest> = {}): ExecRequest {
  return {
    command: '/bin/sh',
    args: ['-c', script],
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdin: '',
    timeoutMs: 5000,
    ...over,
  };
}

describe('executor capture options', () => {
  it('returns no stderr text unless asked', async () => {
    const r = await runSubprocess(sh('echo secret >&2; exit 2'));
    expect(r.stderr).toBeUndefined();
    expect(r.stderrBytes).toBe(7);
  });

  it('returns the stderr text when asked, cut at its limit without a mark', async () => {
    const r = await runSubprocess(
      sh('printf "%s" "$(head -c 20000 /dev/zero | tr "\\0" x)" >&2', { captureStderr: true, stderrLimitBytes: 100 }),
    );
    expect(r.stderr).toBe('x'.repeat(100));
    expect(r.stderrBytes).toBe(20000);
    expect(r.truncated).toBe(true);
  });

  it('keeps stdout up to a per-request limit', async () => {
    const big = 'head -c 300000 /dev/zero | tr "\\0" y';
    const r = await runSubprocess(sh(big, { stdoutLimitBytes: 1024 * 1024 }));
    expect(r.stdout.length).toBe(300000);
    expect(r.truncated).toBe(false);
    const small = await runSubprocess(sh(big));
    expect(small.truncated).toBe(true);
  });
});
