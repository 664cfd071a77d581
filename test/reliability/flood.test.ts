// Bounded memory (SPEC §3.4 capture, §7 "a hook writing a gigabyte keeps hookctl's memory under
// 100 MB"): hooks write 1 GiB to stdout and 1 GiB to stderr; fire completes, the records count every
// byte and say truncated, and the peak resident set of the hookctl process stays under 100 MB.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  COMPOZY_PAYLOAD,
  COSH_PAYLOAD,
  makeBox,
  parseJson,
  runCliMeasured,
  shQuote,
  STACK_FRAME,
  type FireJson,
} from './support.js';

const GIB = 1024 * 1024 * 1024;
/** SPEC §7's 100 MB, read as 100,000,000 bytes, in the KiB /proc reports (97,656 KiB). */
const PEAK_LIMIT_KB = 100_000_000 / 1024;

function figure(text: string): void {
  if (process.env.HOOKCTL_FIGURES) process.stdout.write(`[figures] ${text}\n`);
}

// The peak is read from /proc (Linux); elsewhere there is nothing to measure it with.
describe.skipIf(!existsSync('/proc/self/status'))('a hook writing 1 GiB', { concurrent: true }, () => {
  it(
    'compozy: 1 GiB on stdout and 1 GiB on stderr are counted, cut at 8 KiB, and never held in memory',
    { timeout: 180_000 },
    async () => {
      const box = makeBox();
      box.writeCompozy([
        // A generous timeout: the point is a hook that finishes writing, however slow the machine.
        {
          name: 'flood-out',
          event: 'tool.pre_call',
          mode: 'sync',
          priority: 30,
          timeout: '150s',
          command: box.hook('flood.sh'),
          args: ['out', String(GIB)],
        },
        {
          name: 'flood-err',
          event: 'tool.pre_call',
          mode: 'sync',
          priority: 20,
          timeout: '150s',
          command: box.hook('flood.sh'),
          args: ['err', String(GIB)],
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
      const res = await runCliMeasured(
        ['hooks', 'fire', 'tool.pre_call', '--session', 'flood', '-o', 'json', '--workspace', box.workspace],
        {
          env: box.env,
          input: COMPOZY_PAYLOAD,
          timeoutMs: 170_000,
        },
      );
      figure(`compozy 2 GiB flood: peak RSS ${res.peakKb} KiB, ${Math.round(res.ms)} ms`);
      expect(res.stderr).not.toMatch(STACK_FRAME);
      expect(res.code, res.stderr).toBe(0);
      const out = parseJson<FireJson>(res.stdout);
      const [floodOut, floodErr, after] = box.records('compozy', 'flood');
      expect(out.runs).toEqual([floodOut, floodErr, after]);
      // 1 GiB of NUL bytes is not a patch: failed, but every byte was read and counted.
      expect(floodOut).toMatchObject({
        hook_name: 'flood-out',
        outcome: 'failed',
        exit_code: 0,
        timed_out: false,
        stdout_bytes: GIB,
        stderr_bytes: 0,
        truncated: true,
      });
      expect(floodErr).toMatchObject({
        hook_name: 'flood-err',
        outcome: 'applied',
        exit_code: 0,
        timed_out: false,
        stdout_bytes: 0,
        stderr_bytes: GIB,
        truncated: true,
      });
      expect(after).toMatchObject({ hook_name: 'after', outcome: 'applied' });
      expect(res.peakKb).toBeGreaterThan(0);
      expect(res.peakKb, `peak RSS ${res.peakKb} KiB`).toBeLessThan(PEAK_LIMIT_KB);
    },
  );

  it(
    'cosh: 1 GiB on stdout and 1 GiB on stderr are counted, cut at 8 KiB, and never held in memory',
    { timeout: 180_000 },
    async () => {
      const box = makeBox();
      const flood = (stream: string) => `${shQuote(box.hook('flood.sh'))} ${stream} ${GIB}`;
      box.writeCosh('PreToolUse', [
        { name: 'flood-out', timeout: 150_000, command: flood('out') },
        { name: 'flood-err', timeout: 150_000, command: flood('err') },
        { name: 'after', command: `printf '%s' '{"decision":"allow"}'` },
      ]);
      const res = await runCliMeasured(
        ['hooks', 'fire', 'PreToolUse', '--session', 'flood', '-o', 'json', '--workspace', box.workspace],
        {
          env: box.env,
          input: COSH_PAYLOAD,
          timeoutMs: 170_000,
        },
      );
      figure(`cosh 2 GiB flood: peak RSS ${res.peakKb} KiB, ${Math.round(res.ms)} ms`);
      expect(res.stderr).not.toMatch(STACK_FRAME);
      expect(res.code, res.stderr).toBe(0);
      expect(parseJson<FireJson>(res.stdout).verdict).toBe('allow');
      const [floodOut, floodErr, after] = box.records('cosh', 'flood');
      expect(floodOut).toMatchObject({
        hook_name: 'flood-out',
        outcome: 'failed',
        exit_code: 0,
        timed_out: false,
        stdout_bytes: GIB,
        stderr_bytes: 0,
        truncated: true,
      });
      expect(floodErr).toMatchObject({
        hook_name: 'flood-err',
        outcome: 'applied',
        exit_code: 0,
        timed_out: false,
        stdout_bytes: 0,
        stderr_bytes: GIB,
        truncated: true,
      });
      expect(after).toMatchObject({ hook_name: 'after', outcome: 'applied', decision: 'allow' });
      expect(res.peakKb).toBeGreaterThan(0);
      expect(res.peakKb, `peak RSS ${res.peakKb} KiB`).toBeLessThan(PEAK_LIMIT_KB);
    },
  );
});
