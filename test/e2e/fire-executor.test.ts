// The subprocess executor through `hooks fire` (SPEC §3.4): timeouts and the kill ladder, a
// grandchild holding the pipes, the 8 KiB cut, the environment allowlist, stderr never leaking,
// argv without a shell, the working directory. Built CLI, real hook scripts.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binPath } from '../support/cli.js';
import {
  deadWithin,
  emitHook,
  makeSandbox,
  removeSandboxes,
  parseJson,
  processIsDead,
  readPid,
  type FireJson,
} from './fire-support.js';

afterAll(removeSandboxes);

/**
 * Startup of the CLI itself on a loaded 2-core machine, on top of what a hook may take. The hooks
 * these tests end would otherwise run for 20 s or more, so a hang still fails the bound.
 */
const CLI_STARTUP_ALLOWANCE_MS = 8000;

describe.concurrent('hooks fire: timeouts and stray processes', () => {
  it('a hook past its timeout is killed and recorded failed, timed_out, "hook timed out after 300ms"', async () => {
    const box = makeSandbox();
    const pidFile = join(box.out, 'sleeper.pid');
    box.writeConfig([
      {
        name: 'sleeper',
        event: 'tool.pre_call',
        mode: 'sync',
        timeout: '300ms',
        command: box.hook('sleep.sh'),
        args: ['20', pidFile],
      },
    ]);
    const res = await box.cli(['hooks', 'fire', 'tool.pre_call', '-o', 'json', '--session', 't'], { input: '{}' });
    expect(res.code, res.stderr).toBe(0);
    const [run] = parseJson<FireJson>(res.stdout).runs;
    expect(run).toMatchObject({
      outcome: 'failed',
      timed_out: true,
      error: 'hook timed out after 300ms',
      exit_code: null,
      signal: 'SIGTERM',
    });
    expect(run!.duration_ms).toBeGreaterThanOrEqual(300);
    expect(run!.duration_ms).toBeLessThan(1300);
    expect(res.ms).toBeLessThan(300 + 1000 + CLI_STARTUP_ALLOWANCE_MS);
    expect(processIsDead(readPid(pidFile))).toBe(true);
    expect(box.records('t')[0]).toMatchObject({ timed_out: true, outcome: 'failed' });
  });

  it('a hook that ignores SIGTERM is SIGKILLed after the grace: fire returns within timeout + 1 s', async () => {
    const box = makeSandbox();
    const pidFile = join(box.out, 'stubborn.pid');
    box.writeConfig([
      {
        name: 'stubborn',
        event: 'tool.pre_call',
        mode: 'sync',
        timeout: '400ms',
        command: box.hook('ignore-term.sh'),
        args: [pidFile],
      },
      emitHook(box, 'next', 'tool.pre_call', '{"tool_input":"after"}', { priority: 1 }),
    ]);
    const res = await box.cli(['hooks', 'fire', 'tool.pre_call', '-o', 'json'], { input: '{}' });
    expect(res.code, res.stderr).toBe(0);
    const out = parseJson<FireJson>(res.stdout);
    expect(out.runs[0]).toMatchObject({
      hook_name: 'stubborn',
      outcome: 'failed',
      timed_out: true,
      signal: 'SIGKILL',
      error: 'hook timed out after 400ms',
    });
    expect(out.runs[0]!.duration_ms).toBeGreaterThanOrEqual(400 + 250);
    expect(out.runs[0]!.duration_ms).toBeLessThan(400 + 1000);
    expect(res.ms).toBeLessThan(400 + 1000 + CLI_STARTUP_ALLOWANCE_MS);
    expect(out.runs[1]).toMatchObject({ hook_name: 'next', outcome: 'applied' }); // the chain went on
    expect(processIsDead(readPid(pidFile))).toBe(true);
  });

  it('a grandchild holding stdout does not keep fire waiting, and does not survive the run', async () => {
    const box = makeSandbox();
    const pidFile = join(box.out, 'grandchild.pid');
    box.writeConfig([
      {
        name: 'leaves-child',
        event: 'tool.pre_call',
        mode: 'sync',
        timeout: '20s',
        command: box.hook('grandchild.sh'),
        args: [pidFile],
      },
    ]);
    const res = await box.cli(['hooks', 'fire', 'tool.pre_call', '-o', 'json'], { input: '{}', timeoutMs: 15000 });
    expect(res.code, res.stderr).toBe(0);
    const [run] = parseJson<FireJson>(res.stdout).runs;
    expect(run).toMatchObject({ outcome: 'applied', exit_code: 0, timed_out: false });
    expect(run!.duration_ms).toBeLessThan(1000); // the grandchild sleeps 30 s; the timeout is 20 s
    expect(res.ms).toBeLessThan(1000 + CLI_STARTUP_ALLOWANCE_MS);
    // SIGKILL is sent before fire returns; on a loaded machine the kernel may take a moment to reap.
    const pid = readPid(pidFile);
    expect(await deadWithin(pid)).toBe(true);
  });
});

describe.concurrent('hooks fire: stopped by a signal', () => {
  // SIGKILL runs no handler of hookctl's own: its supervisor ends the hooks (src/exec/supervisor.ts).
  it.each(['SIGINT', 'SIGTERM', 'SIGKILL'] as const)('ends its running hooks when it gets %s', async (sig) => {
    const box = makeSandbox();
    const pidFile = join(box.out, 'long.pid');
    box.writeConfig([
      {
        name: 'long',
        event: 'tool.pre_call',
        mode: 'sync',
        timeout: '60s',
        command: box.hook('sleep.sh'),
        args: ['30', pidFile],
      },
    ]);
    const child = spawn(process.execPath, [binPath, 'hooks', 'fire', 'tool.pre_call', '--workspace', box.workspace], {
      env: box.env,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.stdin.on('error', () => {}); // EPIPE when hookctl exits before reading it
    child.stdin.end('{}');
    const closed = new Promise<string | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
    const deadline = Date.now() + 20_000;
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') {
      if (Date.now() > deadline) throw new Error('the hook never started');
      await new Promise((r) => setTimeout(r, 50));
    }
    const hookPid = readPid(pidFile);
    child.kill(sig);
    expect(await closed).toBe(sig); // it dies by the signal, as an untouched process would
    expect(await deadWithin(hookPid)).toBe(true);
  });
});

describe.concurrent('hooks fire: what a hook writes', () => {
  it('cuts stdout at 8 KiB (the cut patch fails to decode) while counting every byte', async () => {
    const box = makeSandbox();
    box.writeConfig([
      {
        name: 'big',
        event: 'prompt.post_assemble',
        mode: 'sync',
        command: box.hook('big-patch.mjs'),
        args: ['102400', '20000'],
      },
      {
        name: 'fits',
        event: 'prompt.post_assemble',
        mode: 'sync',
        priority: 1,
        command: box.hook('big-patch.mjs'),
        args: ['8192'],
      },
    ]);
    const res = await box.cli(['hooks', 'fire', 'prompt.post_assemble', '-o', 'json', '--session', 'big'], {
      input: '{"prompt":"p"}',
    });
    expect(res.code, res.stderr).toBe(0);
    const out = parseJson<FireJson>(res.stdout);
    const [big, fits] = out.runs;
    expect(big).toMatchObject({
      hook_name: 'big',
      outcome: 'failed',
      exit_code: 0,
      truncated: true,
      stdout_bytes: 102400,
      stderr_bytes: 20000,
    });
    expect(big!.error).toBe('hooks: decode patch for hook "big": unexpected EOF'); // cut inside the string
    // Exactly 8 KiB is not cut.
    expect(fits).toMatchObject({ hook_name: 'fits', outcome: 'applied', truncated: false, stdout_bytes: 8192 });
    expect(out.payload.prompt).toHaveLength(8192 - 13);
    // The log holds no hook output beyond the recorded patch: the 100 KiB never reach it.
    expect(readFileSync(box.logFile('big'), 'utf8').length).toBeLessThan(8192 + 4096);
  });

  it('never lets stderr content reach the output, the error or the log; only its size', async () => {
    const box = makeSandbox();
    const canary = 'CANARY-stderr-7f3a9c';
    box.writeConfig([
      {
        name: 'noisy',
        event: 'tool.pre_call',
        mode: 'sync',
        priority: 900,
        command: box.hook('fail-stderr.sh'),
        args: [canary],
      },
      {
        name: 'noisy-required',
        event: 'tool.pre_call',
        mode: 'sync',
        required: true,
        command: box.hook('fail-stderr.sh'),
        args: [canary, '2'],
      },
    ]);
    const [json, human] = await Promise.all([
      box.cli(['hooks', 'fire', 'tool.pre_call', '-o', 'json', '--session', 'noisy'], { input: '{}' }),
      box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'noisy-human'], { input: '{}' }),
    ]);
    expect(json.code).toBe(3);
    expect(human.code).toBe(3);
    const out = parseJson<FireJson>(json.stdout);
    const bytes = canary.length + 1;
    expect(out.runs.map((r) => [r.error, r.stderr_bytes])).toEqual([
      [`hook command failed: exit status 1 (stderr: ${bytes} bytes)`, bytes],
      [`hook command failed: exit status 2 (stderr: ${bytes} bytes)`, bytes],
    ]);
    expect(out.error).toBe(
      `hooks: required hook "noisy-required" failed for event "tool.pre_call": hook command failed: exit status 2 (stderr: ${bytes} bytes)`,
    );
    expect(human.stdout).toContain(`(stderr: ${bytes} bytes)`);
    for (const text of [
      json.stdout,
      json.stderr,
      human.stdout,
      human.stderr,
      readFileSync(box.logFile('noisy'), 'utf8'),
      readFileSync(box.logFile('noisy-human'), 'utf8'),
    ]) {
      expect(text).not.toContain(canary);
    }
  });

  it('passes args verbatim without a shell', async () => {
    const box = makeSandbox();
    const tricky = ' $(touch pwned) ; `id` * "q" \\ $HOME';
    box.writeConfig([
      {
        name: 'literal',
        event: 'prompt.post_assemble',
        mode: 'sync',
        command: box.hook('append-prompt.mjs'),
        args: [tricky],
      },
    ]);
    const res = await box.cli(['hooks', 'fire', 'prompt.post_assemble', '--payload-only'], { input: '{"prompt":">"}' });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).prompt).toBe(`>${tricky}`);
    expect(existsSync(join(box.workspace, 'pwned'))).toBe(false);
  });

  it('a `bash -c` hook reads its payload without bash taking it for a remote shell (no ~/.bashrc)', async () => {
    // Debian's bash sources ~/.bashrc when its stdin is a socket and SHLVL is unset, as for a
    // hook: hookctl must hand the payload through a pipe-like stdin, as the Go runtime does.
    const box = makeSandbox();
    writeFileSync(join(box.env.HOME!, '.bashrc'), 'printf "BASHRC-SOURCED"\n');
    box.writeConfig([
      {
        name: 'inline',
        event: 'prompt.post_assemble',
        mode: 'sync',
        command: 'bash',
        args: ['-c', 'read -r p; printf \'{"prompt":"%s"}\' "${#p}"'],
      },
    ]);
    const res = await box.cli(['hooks', 'fire', 'prompt.post_assemble', '-o', 'json'], { input: '{"prompt":"x"}' });
    expect(res.code, res.stderr).toBe(0);
    const out = parseJson<FireJson>(res.stdout);
    expect(out.runs[0]).toMatchObject({ outcome: 'applied' });
    expect(Number(out.payload.prompt)).toBeGreaterThan(10); // it read the compact payload line
  });
});

describe('hooks fire: the hook environment', () => {
  it('passes only the allowlist, the declared env, resolved secret_env and HOOKCTL_DISPATCH_DEPTH; runs in the workspace', async () => {
    const box = makeSandbox();
    const dump = join(box.out, 'env.json');
    box.writeConfig([
      {
        name: 'env-dump',
        event: 'tool.pre_call',
        mode: 'sync',
        command: box.hook('dump-env.mjs'),
        args: [dump, 'two words'],
        env: { GREETING: 'hello', HOOKCTL_DISPATCH_DEPTH: '99' },
        secret_env: { API_TOKEN: 'env:MY_API_SECRET' },
      },
    ]);
    const secretEnv = {
      ...box.env,
      MY_API_SECRET: 's3cr3t-value-81',
      AWS_SECRET_ACCESS_KEY: 'aws-secret-value-42',
      RANDOM_SETTING: 'leak-me-not',
      TERM: 'xterm',
      USER: 'someone',
    };
    const res = await box.cli(['hooks', 'fire', 'tool.pre_call', '-o', 'json', '--session', 'env'], {
      input: '{}',
      env: secretEnv,
    });
    expect(res.code, res.stderr).toBe(0);
    const seen = JSON.parse(readFileSync(dump, 'utf8')) as { env: Record<string, string>; cwd: string; argv: string[] };
    expect(Object.keys(seen.env).sort()).toEqual(
      ['API_TOKEN', 'GREETING', 'HOME', 'HOOKCTL_DISPATCH_DEPTH', 'LANG', 'PATH', 'TERM', 'TMPDIR', 'USER'].sort(),
    );
    expect(seen.env).toMatchObject({
      API_TOKEN: 's3cr3t-value-81',
      GREETING: 'hello',
      HOOKCTL_DISPATCH_DEPTH: '1', // the engine's value beats the declared one
      HOME: box.env.HOME,
      PATH: box.env.PATH,
      TERM: 'xterm',
      USER: 'someone',
    });
    expect(seen.cwd).toBe(box.workspace);
    expect(seen.argv).toEqual(['two words']);
    // No secret value reaches hookctl's output or the log.
    for (const text of [res.stdout, res.stderr, readFileSync(box.logFile('env'), 'utf8')]) {
      expect(text).not.toContain('s3cr3t-value-81');
      expect(text).not.toContain('aws-secret-value-42');
    }
  });

  it('fails only the hook whose secret_env cannot be resolved', async () => {
    const box = makeSandbox();
    box.writeConfig([
      emitHook(box, 'unset-secret', 'tool.pre_call', '{}', {
        priority: 3,
        secret_env: { TOKEN: 'env:NOT_SET_ANYWHERE' },
      }),
      emitHook(box, 'vault-secret', 'tool.pre_call', '{}', {
        priority: 2,
        secret_env: { TOKEN: 'vault:hooks/ci/token' },
      }),
      emitHook(box, 'plain', 'tool.pre_call', '{}', { priority: 1 }),
    ]);
    const res = await box.cli(['hooks', 'fire', 'tool.pre_call', '-o', 'json'], { input: '{}' });
    expect(res.code, res.stderr).toBe(0);
    const runs = parseJson<FireJson>(res.stdout).runs;
    expect(runs.map((r) => [r.hook_name, r.outcome])).toEqual([
      ['unset-secret', 'failed'],
      ['vault-secret', 'failed'],
      ['plain', 'applied'],
    ]);
    expect(runs[0]!.error).toBe(
      'hooks: hook "unset-secret": resolve secret_env.TOKEN: environment variable "NOT_SET_ANYWHERE" (from "env:NOT_SET_ANYWHERE") is not set or empty',
    );
    expect(runs[1]!.error).toContain('vault references are not supported');
  });
});
