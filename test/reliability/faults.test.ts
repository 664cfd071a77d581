// Faults (SPEC §3.4, §4.4, §6 "No process of a hook's group outlives its run", §7 "Bounded"):
// real hook scripts that sleep past their timeout, ignore SIGTERM, leave a grandchild holding the
// pipes, print binary, close stdin, cannot start or die by a signal. Both dialects, the built CLI.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/ledger/record.js';
import {
  COMPOZY_PAYLOAD,
  COSH_PAYLOAD,
  expectOneLineError,
  killAll,
  makeBox,
  parseJson,
  readPids,
  shQuote,
  STACK_FRAME,
  survivors,
  type Box,
  type Dialect,
  type FireJson,
} from './support.js';

const TIMEOUT_MS = 1000;
/** SPEC §7: a hook that will not end costs at most its timeout plus this. */
const SLACK_MS = 1000;

// Processes a failing test may leave behind (30 s sleepers), ended once the file is done.
const leftovers: number[] = [];
afterAll(() => killAll(leftovers));

function figure(text: string): void {
  if (process.env.HOOKCTL_FIGURES) process.stdout.write(`[figures] ${text}\n`);
}

/** Declares [fault hook, "after" hook] for the dialect; returns how to fire once. */
function declareWithAfter(box: Box, dialect: Dialect, script: string, args: string[]): void {
  if (dialect === 'compozy') {
    box.writeCompozy([
      {
        name: 'fault',
        event: 'tool.pre_call',
        mode: 'sync',
        priority: 20,
        timeout: '1s',
        command: box.hook(script),
        args,
      },
      {
        name: 'after',
        event: 'tool.pre_call',
        mode: 'sync',
        priority: 10,
        command: box.hook('emit.sh'),
        args: ['{"tool_input":{"path":"after"}}'],
      },
    ]);
  } else {
    box.writeCosh('PreToolUse', [
      { name: 'fault', timeout: TIMEOUT_MS, command: [box.hook(script), ...args].map(shQuote).join(' ') },
      {
        name: 'after',
        command: `printf '%s' '{"decision":"allow","hookSpecificOutput":{"additional_context":"after ran"}}'`,
      },
    ]);
  }
}

const event = (d: Dialect) => (d === 'compozy' ? 'tool.pre_call' : 'PreToolUse');
const payload = (d: Dialect) => (d === 'compozy' ? COMPOZY_PAYLOAD : COSH_PAYLOAD);

async function fire(box: Box, dialect: Dialect, session: string) {
  const res = await box.cli(['hooks', 'fire', event(dialect), '--session', session, '-o', 'json'], {
    input: payload(dialect),
  });
  expect(res.stderr).not.toMatch(STACK_FRAME);
  return { res, out: parseJson<FireJson>(res.stdout) };
}

function expectAfterRan(dialect: Dialect, out: FireJson, after: RunRecord | undefined): void {
  expect(after).toMatchObject({ hook_name: 'after', outcome: 'applied' });
  if (dialect === 'compozy') expect((out.payload.tool_input as { path: string }).path).toBe('after');
  else expect(out.verdict).toBe('allow');
}

// Concurrent: each test mostly waits for its timeout. The clock starts when the hook starts (the
// script writes the time), so no start-up cost of hookctl is counted, whatever the machine's load.
describe.concurrent.each(['compozy', 'cosh'] as const)('%s: a hook that will not end', (dialect) => {
  it.each([
    { script: 'sleep-past.sh', what: 'sleeps past its timeout', timedOut: true },
    { script: 'ignore-term.sh', what: 'ignores SIGTERM (its child too)', timedOut: true },
    {
      script: 'grandchild.sh',
      what: 'exits at once but leaves a grandchild (ignoring SIGTERM) holding stdout and stderr',
      timedOut: false,
    },
  ])(
    '$what: fire returns within timeout + 1 s of the hook starting, no process of the hook survives, the next hook runs',
    async ({ script, timedOut }) => {
      const box = makeBox();
      const pidFile = join(box.out, 'pids');
      declareWithAfter(box, dialect, script, [pidFile]);
      const { res, out } = await fire(box, dialect, 'fault');
      const returnedAt = Date.now();
      const pids = readPids(pidFile);
      leftovers.push(...pids);
      expect(pids.length).toBeGreaterThanOrEqual(2); // the hook and its child / grandchild

      expect(res.code, res.stderr).toBe(0);
      const [fault, after] = box.records(dialect, 'fault');
      if (timedOut) {
        expect(fault).toMatchObject({
          hook_name: 'fault',
          outcome: 'failed',
          timed_out: true,
          error: 'hook timed out after 1s',
        });
        expect(fault!.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
        expect(fault!.duration_ms).toBeLessThanOrEqual(TIMEOUT_MS + SLACK_MS);
      } else {
        // The hook answered and exited 0: the grandchild holding its pipes is not waited for.
        expect(fault).toMatchObject({ hook_name: 'fault', outcome: 'applied', timed_out: false, exit_code: 0 });
        expect(fault!.duration_ms).toBeLessThan(TIMEOUT_MS);
      }
      expectAfterRan(dialect, out, after);
      // The whole command, from the hook's start to hookctl's exit (the "after" hook included).
      const hookStartedAt = Number(readFileSync(`${pidFile}.start`, 'utf8').trim());
      const afterStart = returnedAt - hookStartedAt;
      expect(afterStart).toBeLessThanOrEqual(TIMEOUT_MS + SLACK_MS);
      figure(
        `${dialect} ${script}: hook ${fault!.duration_ms} ms, hookctl exited ${afterStart} ms after the hook started`,
      );

      expect(await survivors(pids), `pids ${pids.join(', ')} outlived the hook`).toEqual([]);
    },
  );
});

/** Files the error-kind hooks answer with, built here so no binary file sits in the tree. */
function writeOutputs(box: Box): { binary: string; badUtf8: string } {
  const binary = join(box.out, 'binary.out');
  writeFileSync(
    binary,
    Buffer.from([0x00, 0x01, 0xff, 0xfe, 0x80, 0x0a, 0x1b, 0x5b, 0x32, 0x4a, 0x0d, 0x7f, 0xc3, 0x28, 0x0a]),
  );
  return { binary, badUtf8: join(box.out, 'bad-utf8.out') };
}

/** Commands that cannot start: missing, not executable, not a program, a directory. */
function unstartable(box: Box): { missing: string; notExecutable: string; noShebang: string; directory: string } {
  const notExecutable = join(box.out, 'not-executable.sh');
  writeFileSync(notExecutable, '#!/bin/sh\nprintf {}\n');
  chmodSync(notExecutable, 0o644);
  const noShebang = join(box.out, 'no-shebang');
  writeFileSync(noShebang, 'printf {}\n');
  chmodSync(noShebang, 0o755);
  const directory = join(box.out, 'a-directory');
  mkdirSync(directory);
  return { missing: join(box.out, 'no', 'such', 'hook'), notExecutable, noShebang, directory };
}

/** The log must be valid UTF-8, one JSON object per line. */
function expectCleanLog(file: string): void {
  const bytes = readFileSync(file);
  expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).not.toThrow();
  const text = bytes.toString('utf8');
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.slice(0, -1).split('\n')) expect(() => JSON.parse(line)).not.toThrow();
}

describe.concurrent(
  'a hook that misbehaves is recorded with a clear one-line error; the other hooks are unaffected',
  () => {
    it('compozy: binary output, invalid UTF-8, closed stdin, missing / not executable / not a program / a directory, killed by a signal', async () => {
      const box = makeBox();
      const { binary, badUtf8 } = writeOutputs(box);
      writeFileSync(
        badUtf8,
        Buffer.concat([Buffer.from('{"tool_input":{"path":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}}')]),
      );
      const cannot = unstartable(box);
      const names = [
        'binary',
        'bad-utf8',
        'close-stdin',
        'missing',
        'not-on-path',
        'not-executable',
        'no-shebang',
        'directory',
        'killed',
        'last',
      ];
      const commands: Record<string, { command: string; args?: string[] }> = {
        binary: { command: box.hook('cat-file.sh'), args: [binary] },
        'bad-utf8': { command: box.hook('cat-file.sh'), args: [badUtf8] },
        'close-stdin': { command: box.hook('close-stdin.sh'), args: ['{}'] },
        missing: { command: cannot.missing },
        'not-on-path': { command: 'hookctl-no-such-command' },
        'not-executable': { command: cannot.notExecutable },
        'no-shebang': { command: cannot.noShebang },
        directory: { command: cannot.directory },
        killed: { command: box.hook('kill-self.sh') },
        last: { command: box.hook('emit.sh'), args: ['{"tool_input":{"path":"last"}}'] },
      };
      box.writeCompozy(
        names.map((name, i) => ({
          name,
          event: 'tool.pre_call',
          mode: 'sync' as const,
          priority: 100 - i,
          ...commands[name]!,
        })),
      );
      // 256 KiB of payload: more than a pipe holds, so writing to the hook that closed stdin fails.
      const big = JSON.stringify({ tool_id: 'compozy__workspace_info', tool_input: { blob: 'x'.repeat(256 * 1024) } });
      const res = await box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'kinds', '-o', 'json'], { input: big });
      expect(res.stderr).not.toMatch(STACK_FRAME);
      expect(res.code, res.stderr).toBe(0);
      const out = parseJson<FireJson>(res.stdout);
      expect(out.verdict).toBe('completed');
      expect((out.payload.tool_input as { path: string }).path).toBe('last');

      const records = box.records('compozy', 'kinds');
      const by = Object.fromEntries(records.map((r) => [r.hook_name, r]));
      expect(records.map((r) => r.hook_name)).toEqual(names); // every hook ran and was recorded, in order
      expect(by.binary).toMatchObject({ outcome: 'failed', exit_code: 0, stdout_bytes: 15 });
      expect(expectOneLineError(by.binary!.error)).toMatch(/^hooks: decode patch for hook "binary": /);
      // Invalid UTF-8 inside a JSON string decodes with U+FFFD (as Go's encoding/json does), or fails.
      if (by['bad-utf8']!.outcome === 'failed') expectOneLineError(by['bad-utf8']!.error);
      else expect(by['bad-utf8']).toMatchObject({ outcome: 'applied' });
      expect(by['close-stdin']).toMatchObject({ outcome: 'applied', exit_code: 0 });
      expect(by['close-stdin']!.error).toBeNull();
      expect(expectOneLineError(by.missing!.error)).toBe(
        `hooks: hook "missing": resolve executable ${JSON.stringify(cannot.missing)}: stat ${cannot.missing}: no such file or directory`,
      );
      expect(expectOneLineError(by['not-on-path']!.error)).toBe(
        'hooks: hook "not-on-path": resolve executable "hookctl-no-such-command": executable file not found in $PATH',
      );
      expect(expectOneLineError(by['not-executable']!.error)).toMatch(/permission denied$/);
      expect(expectOneLineError(by['no-shebang']!.error)).toMatch(/exec format error$/);
      expect(expectOneLineError(by.directory!.error)).toMatch(/is a directory$/);
      expect(by.killed).toMatchObject({
        outcome: 'failed',
        signal: 'SIGKILL',
        exit_code: null,
        error: 'hook command failed: signal: killed',
      });
      expect(by.last).toMatchObject({ outcome: 'applied', patch_applied: { tool_input: { path: 'last' } } });
      for (const name of ['missing', 'not-on-path', 'not-executable', 'no-shebang', 'directory'])
        expect(by[name]!.outcome).toBe('failed');
      expectCleanLog(box.logFile('compozy', 'kinds'));
    });

    it('cosh: binary output, invalid UTF-8, closed stdin, missing / not executable command, killed by a signal', async () => {
      const box = makeBox();
      const { binary, badUtf8 } = writeOutputs(box);
      writeFileSync(
        badUtf8,
        Buffer.concat([
          Buffer.from('{"decision":"allow","reason":"'),
          Buffer.from([0xff, 0xfe, 0xc3]),
          Buffer.from('"}'),
        ]),
      );
      const cannot = unstartable(box);
      const hooks = [
        { name: 'binary', command: `${shQuote(box.hook('cat-file.sh'))} ${shQuote(binary)}` },
        { name: 'bad-utf8', command: `${shQuote(box.hook('cat-file.sh'))} ${shQuote(badUtf8)}` },
        { name: 'close-stdin', command: `${shQuote(box.hook('close-stdin.sh'))} '{"decision":"allow"}'` },
        { name: 'missing', command: shQuote(cannot.missing) },
        { name: 'not-executable', command: shQuote(cannot.notExecutable) },
        { name: 'killed', command: 'kill -9 $$' },
        {
          name: 'last',
          command: `printf '%s' '{"decision":"allow","hookSpecificOutput":{"additional_context":"last ran"}}'`,
        },
      ];
      box.writeCosh('PreToolUse', hooks);
      const big = JSON.stringify({ tool_name: 'shell', tool_input: { command: 'ls', blob: 'x'.repeat(256 * 1024) } });
      const res = await box.cli(['hooks', 'fire', 'PreToolUse', '--session', 'kinds', '-o', 'json'], { input: big });
      expect(res.stderr).not.toMatch(STACK_FRAME);
      expect(res.code, res.stderr).toBe(0);
      const out = parseJson<FireJson & { additional_context: string | null }>(res.stdout);
      expect(out.verdict).toBe('allow');
      expect(out.additional_context).toBe('last ran');

      const records = box.records('cosh', 'kinds');
      const by = Object.fromEntries(records.map((r) => [r.hook_name, r]));
      expect(records.map((r) => r.hook_name)).toEqual(hooks.map((h) => h.name));
      expect(by.binary).toMatchObject({ outcome: 'failed', stdout_bytes: 15 });
      expectOneLineError(by.binary!.error);
      expect(by['bad-utf8']).toMatchObject({ outcome: 'applied', decision: 'allow', reason: '\ufffd\ufffd\ufffd' });
      expect(by['close-stdin']).toMatchObject({ outcome: 'applied', decision: 'allow' });
      expect(by.missing).toMatchObject({ outcome: 'failed', exit_code: 127 });
      expect(expectOneLineError(by.missing!.error)).toMatch(
        /^hook command failed: exit status 127 \(stderr: \d+ bytes\)$/,
      );
      expect(by['not-executable']).toMatchObject({ outcome: 'failed', exit_code: 126 });
      expect(expectOneLineError(by['not-executable']!.error)).toMatch(
        /^hook command failed: exit status 126 \(stderr: \d+ bytes\)$/,
      );
      expect(by.killed).toMatchObject({
        outcome: 'failed',
        signal: 'SIGKILL',
        error: 'hook command failed: signal: killed',
      });
      expect(by.last).toMatchObject({ outcome: 'applied', decision: 'allow' });
      expectCleanLog(box.logFile('cosh', 'kinds'));
    });
  },
);
