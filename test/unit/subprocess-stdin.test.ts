// How the executor hands the payload to a hook's stdin: never as a socket, which bash -c takes for
// a remote shell daemon (it then sources ~/.bashrc, whose output would land in the patch).
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSubprocess } from '../../src/exec/subprocess.js';
import type { ExecRequest } from '../../src/exec/types.js';

let home: string;
let scratch: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'hookctl-stdin-home-'));
  scratch = await mkdtemp(join(tmpdir(), 'hookctl-stdin-tmp-'));
  await writeFile(join(home, '.bashrc'), 'printf "BASHRC-SOURCED"\n');
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
});

// A hook's environment as the allowlist leaves it: no SHLVL, so bash counts as a top-level shell.
const request = (script: string, stdin: string): ExecRequest => ({
  command: 'bash',
  args: ['-c', script],
  cwd: home,
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TMPDIR: scratch },
  stdin,
  timeoutMs: 5000,
});

describe('runSubprocess stdin', () => {
  it('is not a socket, so bash -c does not source ~/.bashrc', async () => {
    const result = await runSubprocess(
      request('if [ -S /dev/stdin ]; then printf socket; else printf other; fi', '{}'),
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('other');
  });

  it('carries the whole payload, then end of file', async () => {
    const payload = JSON.stringify({ prompt: 'é'.repeat(100_000) });
    const result = await runSubprocess(request('wc -c', payload));
    expect(result.stdout.trim()).toBe(String(Buffer.byteLength(payload)));
  });

  it('leaves no payload file behind', async () => {
    const before = await readdir(tmpdir());
    await runSubprocess(request('cat > /dev/null', '{"secret":"x"}'));
    const left = (await readdir(tmpdir())).filter(
      (f) => f.startsWith(`hookctl-payload-${process.pid}-`) && !before.includes(f),
    );
    expect(left).toEqual([]);
  });
});
