// The run ledger end to end (SPEC §5, §6 `hooks runs`): what `hooks fire` writes, read back with
// every field and filter; a torn line; many fire processes appending to one session at once.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RUN_RECORD_FIELDS, type RunRecord } from '../../src/ledger/record.js';
import { emitHook, makeSandbox, removeSandboxes, parseJson, type FireJson, type Sandbox } from './fire-support.js';

afterAll(removeSandboxes);

const RFC3339_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A session with known runs: 3 dispatches over 3 events, every outcome a sync chain can have. */
async function seededSession(box: Sandbox, session: string): Promise<RunRecord[]> {
  const skillDir = join(box.workspace, '.compozy', 'skills', 'tool-note');
  mkdirSync(skillDir, { recursive: true });
  writeFileSync(
    join(skillDir, 'SKILL.md'),
    [
      '---',
      'name: tool-note',
      'description: adds a note to every tool call',
      'metadata:',
      '  compozy:',
      '    hooks:',
      '      - event: tool.pre_call',
      '        mode: sync',
      `        command: ${JSON.stringify(box.hook('emit.sh'))}`,
      '        args: [\'{"read_only":true}\']',
      '---',
      '',
    ].join('\n'),
  );
  box.writeConfig([
    emitHook(box, 'rewrite', 'tool.pre_call', '{"tool_input":{"n":1}}'),
    { name: 'stumble', event: 'tool.pre_call', mode: 'sync', command: box.hook('fail-stderr.sh'), args: ['x'] },
    emitHook(box, 'swap', 'tool.pre_call', '{"tool_id":"other"}', { priority: 1 }),
    emitHook(box, 'closer', 'tool.post_call', '{"deny":true,"deny_reason":"done"}'),
    emitHook(box, 'prompter', 'prompt.post_assemble', '{"prompt":"p2"}'),
  ]);
  for (const [event, input] of [
    ['tool.pre_call', '{"tool_id":"t"}'],
    ['tool.post_call', '{"tool_id":"t"}'],
    ['prompt.post_assemble', '{"prompt":"p"}'],
  ] as const) {
    const res = await box.cli(['hooks', 'fire', event, '--session', session], { input });
    expect(res.code, res.stderr).toBe(0);
  }
  return box.records(session);
}

describe.concurrent('hooks runs: the round trip', () => {
  it('records every SPEC §5 field with its type, and reads them back as a JSON array, oldest first', async () => {
    const box = makeSandbox();
    const logged = await seededSession(box, 'trip');
    expect(logged.map((r) => [r.event, r.hook_name, r.outcome])).toEqual([
      ['tool.pre_call', 'rewrite', 'applied'],
      ['tool.pre_call', 'stumble', 'failed'],
      ['tool.pre_call', 'swap', 'rejected'],
      ['tool.pre_call', 'tool-note', 'applied'],
      ['tool.post_call', 'closer', 'denied'],
      ['prompt.post_assemble', 'prompter', 'applied'],
    ]);
    for (const r of logged) {
      expect(typeof r.run_id).toBe('string');
      expect(r.dispatch_id).toMatch(/^\S+$/);
      expect(r.session_id).toBe('trip');
      expect(r.dialect).toBe('compozy');
      expect(r.mode).toBe('sync');
      expect(Number.isInteger(r.priority)).toBe(true);
      expect(typeof r.required).toBe('boolean');
      expect(Number.isInteger(r.duration_ms) && r.duration_ms >= 0).toBe(true);
      expect(r.dispatch_depth).toBe(1);
      // Process facts: a process ran for every one of these.
      expect(r.exit_code === null || Number.isInteger(r.exit_code)).toBe(true);
      expect(r.signal === null || typeof r.signal === 'string').toBe(true);
      expect(typeof r.timed_out).toBe('boolean');
      expect(Number.isInteger(r.stdout_bytes)).toBe(true);
      expect(Number.isInteger(r.stderr_bytes)).toBe(true);
      expect(typeof r.truncated).toBe('boolean');
      expect(r.recorded_at).toMatch(RFC3339_MS_UTC);
      // Every §5 field, in §5's order, null where it has no value (issue 28).
      expect(Object.keys(r)).toEqual([...RUN_RECORD_FIELDS]);
      expect(r.decision).toBeNull(); // cosh only
      // cosh only, except the reason a denying compozy hook gave (SPEC §7.4: runs shows it)
      if (r.outcome !== 'denied') expect(r.reason).toBeNull();
      if (r.error != null) expect(r.error).toBe(r.error.trim().replace(/\n/g, ''));
      // The workspace it was fired in, and the file that declared the hook (issue 22).
      expect(r.workspace).toBe(box.workspace);
      expect(r.declared_in).toBe(
        r.hook_name === 'tool-note'
          ? join(box.workspace, '.compozy', 'skills', 'tool-note', 'SKILL.md')
          : join(box.workspace, '.compozy', 'config.toml'),
      );
    }
    expect(new Set(logged.map((r) => r.run_id)).size).toBe(logged.length);
    expect(new Set(logged.map((r) => r.dispatch_id)).size).toBe(3);
    const [rewrite, stumble, swap, note, closer, prompter] = logged;
    expect(rewrite).toMatchObject({
      source: 'config',
      priority: 500,
      exit_code: 0,
      patch_applied: { tool_input: { n: 1 } },
    });
    expect(rewrite).toMatchObject({ skill_source: null, error: null });
    expect(stumble).toMatchObject({
      exit_code: 1,
      stderr_bytes: 2,
      error: 'hook command failed: exit status 1 (stderr: 2 bytes)',
    });
    expect(swap!.error).toContain('cannot change immutable tool_id');
    expect(note).toMatchObject({
      source: 'skill',
      skill_source: 'workspace',
      priority: 0,
      patch_applied: { read_only: true },
    });
    expect(closer).toMatchObject({ outcome: 'denied', patch_applied: { deny: true, deny_reason: 'done' } });
    expect(prompter).toMatchObject({ patch_applied: { prompt: 'p2' } });

    const runs = await box.cli(['hooks', 'runs', '--session', 'trip', '-o', 'json']);
    expect(runs.code, runs.stderr).toBe(0);
    expect(parseJson<RunRecord[]>(runs.stdout)).toEqual(logged);
    const jsonl = await box.cli(['hooks', 'runs', '--session', 'trip', '-o', 'jsonl']);
    expect(
      jsonl.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(logged);
    const human = await box.cli(['hooks', 'runs', '--session', 'trip']);
    expect(human.stdout).toContain('session trip');
    expect(human.stdout).toMatch(/Hook\s+Event\s+Outcome\s+Duration\s+Error\s+Recorded/);
    expect(human.stdout).toMatch(/stumble\s+tool\.pre_call\s+failed/);
  });

  it('filters by --event pattern, --outcome, --hook, --since (duration and RFC 3339) and --last N', async () => {
    const box = makeSandbox();
    const logged = await seededSession(box, 'filters');
    const names = async (...args: string[]) => {
      const res = await box.cli(['hooks', 'runs', '--session', 'filters', '-o', 'json', ...args]);
      expect(res.code, res.stderr).toBe(0);
      return parseJson<RunRecord[]>(res.stdout).map((r) => r.hook_name);
    };
    const mid = logged[4]!.recorded_at; // the tool.post_call run
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const results = await Promise.all([
      names('--event', 'tool.*'),
      names('--event', 'tool.post_call'),
      names('--event', '*.post_*'),
      names('--outcome', 'failed'),
      names('--hook', 'prompter'),
      names('--since', '1h'),
      names('--since', mid),
      names('--since', future),
      names('--last', '2'),
      names('--last', '2', '--event', 'tool.pre_call'),
      names('--last', '100'),
      names('--outcome', 'applied', '--event', 'tool.*', '--hook', 'rewrite'),
    ]);
    expect(results).toEqual([
      ['rewrite', 'stumble', 'swap', 'tool-note', 'closer'],
      ['closer'],
      ['closer', 'prompter'],
      ['stumble'],
      ['prompter'],
      ['rewrite', 'stumble', 'swap', 'tool-note', 'closer', 'prompter'],
      ['closer', 'prompter'],
      [],
      ['closer', 'prompter'],
      ['swap', 'tool-note'],
      ['rewrite', 'stumble', 'swap', 'tool-note', 'closer', 'prompter'],
      ['rewrite'],
    ]);
    const bad = await Promise.all([
      box.cli(['hooks', 'runs', '--event', '[']),
      box.cli(['hooks', 'runs', '--outcome', 'exploded']),
      box.cli(['hooks', 'runs', '--since', 'yesterday']),
      box.cli(['hooks', 'runs', '--last', '0']),
      box.cli(['hooks', 'runs', '--session', '../../outside']),
    ]);
    for (const r of bad) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.split('\n').length).toBeLessThanOrEqual(4);
    }
  });

  it('defaults to the most recently written session, in either order', async () => {
    const box = makeSandbox();
    const empty = await box.cli(['hooks', 'runs']);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain('No sessions recorded yet.');
    const emptyJson = await box.cli(['hooks', 'runs', '--json']);
    expect(parseJson(emptyJson.stdout)).toEqual([]);

    box.writeConfig([emitHook(box, 'h', 'tool.pre_call', '{}')]);
    const fireIn = (session: string) =>
      box.cli(['hooks', 'fire', 'tool.pre_call', '--session', session], { input: '{}' });
    const current = async () =>
      parseJson<RunRecord[]>((await box.cli(['hooks', 'runs', '-o', 'json'])).stdout).map((r) => r.session_id);
    await fireIn('zzz-first');
    await fireIn('aaa-second');
    expect(await current()).toEqual(['aaa-second']);
    await fireIn('zzz-first');
    expect(await current()).toEqual(['zzz-first', 'zzz-first']);
    expect((await box.cli(['hooks', 'runs'])).stdout).toContain('session zzz-first');
  });
});

describe('hooks runs: damage and concurrency', () => {
  it('skips a torn line and says so; the next record starts on a new line', async () => {
    const box = makeSandbox();
    box.writeConfig([emitHook(box, 'h', 'tool.pre_call', '{}')]);
    const fireOnce = () => box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'torn'], { input: '{}' });
    expect((await fireOnce()).code).toBe(0);
    expect((await fireOnce()).code).toBe(0);
    appendFileSync(box.logFile('torn'), '{"run_id":"half-writ'); // a crash mid-write

    const [all, last] = await Promise.all([
      box.cli(['hooks', 'runs', '--session', 'torn', '-o', 'json']),
      box.cli(['hooks', 'runs', '--session', 'torn', '--last', '5']),
    ]);
    expect(all.code).toBe(0);
    expect(parseJson<RunRecord[]>(all.stdout)).toHaveLength(2);
    expect(all.stderr).toMatch(/skipped 1 line/);
    expect(last.code).toBe(0);
    expect(last.stderr).toMatch(/skipped 1 line/);

    expect((await fireOnce()).code).toBe(0);
    const lines = readFileSync(box.logFile('torn'), 'utf8').split('\n');
    expect(lines).toHaveLength(5); // 2 records, the torn line, the new record, '' after the last newline
    expect(lines[2]).toBe('{"run_id":"half-writ');
    expect(JSON.parse(lines[3]!)).toMatchObject({ hook_name: 'h', session_id: 'torn' });
    expect(lines[4]).toBe('');
    const after = await box.cli(['hooks', 'runs', '--session', 'torn', '-o', 'json']);
    expect(parseJson<RunRecord[]>(after.stdout)).toHaveLength(3);
    expect(after.stderr).toMatch(/skipped 1 line/);
  });

  it('16 concurrent fires of 10 hooks on one session write 160 whole lines', async () => {
    const box = makeSandbox();
    const bigInput = JSON.stringify({ blob: 'x'.repeat(5000) }); // records longer than PIPE_BUF
    box.writeConfig(
      Array.from({ length: 10 }, (_, i) => emitHook(box, `h${i}`, 'tool.pre_call', `{"tool_input":${bigInput}}`)),
    );
    const results = await Promise.all(
      Array.from({ length: 16 }, () =>
        box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'crowd', '-o', 'json'], {
          input: '{}',
          timeoutMs: 120_000,
        }),
      ),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(box.logFile('crowd'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    expect(lines).toHaveLength(160);
    const records = lines.map((l) => JSON.parse(l) as RunRecord);
    expect(new Set(records.map((r) => r.run_id)).size).toBe(160);
    const perDispatch = new Map<string, number>();
    for (const r of records) perDispatch.set(r.dispatch_id, (perDispatch.get(r.dispatch_id) ?? 0) + 1);
    expect([...perDispatch.values()]).toEqual(Array(16).fill(10));
    expect(new Set(results.map((r) => parseJson<FireJson>(r.stdout).dispatch_id))).toEqual(new Set(perDispatch.keys()));
    const read = await box.cli(['hooks', 'runs', '--session', 'crowd', '-o', 'json']);
    expect(read.stderr).toBe('');
    expect(parseJson<RunRecord[]>(read.stdout)).toHaveLength(160);
  }, 180_000);
});
