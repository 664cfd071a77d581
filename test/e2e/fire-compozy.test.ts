// `hooks fire` on CompozyOS events, end to end: the built CLI, real bash and node hook scripts,
// fixture workspaces written per test. Outcomes, verdicts and exit codes (SPEC §3.1, §6).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emitHook, makeSandbox, removeSandboxes, parseJson, type FireJson, type Sandbox } from './fire-support.js';

afterAll(removeSandboxes);

const markerHook = (box: Sandbox, name: string, event: string, more = {}) =>
  emitHook(box, name, event, '{}', { env: { MARKER: join(box.out, `${name}.ran`) }, ...more });
const ran = (box: Sandbox, name: string) => existsSync(join(box.out, `${name}.ran`));

describe.concurrent('hooks fire: the sync patch chain', () => {
  it('passes the current payload along a chain of 3 hooks and applies each patch (exit 0)', async () => {
    const box = makeSandbox();
    const seen = join(box.out, 'seen.txt');
    box.writeConfig(
      ['a', 'b', 'c'].map((name, i) => ({
        name: `append-${name}`,
        event: 'prompt.post_assemble',
        mode: 'sync' as const,
        priority: 30 - i * 10, // a, b, c
        command: box.hook('append-prompt.mjs'),
        args: [` +${name}`, seen],
      })),
    );
    const res = await box.cli(['hooks', 'fire', 'prompt.post_assemble', '--session', 'chain', '-o', 'json'], {
      input: '{"prompt":"start","input_class":"user"}',
    });
    expect(res.code, res.stderr).toBe(0);
    const out = parseJson<FireJson>(res.stdout);
    expect(out.verdict).toBe('completed');
    expect(out.payload.prompt).toBe('start +a +b +c');
    expect(
      readFileSync(seen, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(['start', 'start +a', 'start +a +b']);
    expect(out.runs.map((r) => [r.hook_name, r.outcome, r.patch_applied])).toEqual([
      ['append-a', 'applied', { prompt: 'start +a' }],
      ['append-b', 'applied', { prompt: 'start +a +b' }],
      ['append-c', 'applied', { prompt: 'start +a +b +c' }],
    ]);
    const logged = box.records('chain');
    expect(logged.map((r) => r.run_id)).toEqual(out.runs.map((r) => r.run_id));
    expect(new Set(logged.map((r) => r.dispatch_id))).toEqual(new Set([out.dispatch_id]));
  });

  it('applies only the applied fields of a patch; an observation-only patch changes nothing', async () => {
    const box = makeSandbox();
    box.writeConfig([
      // tool.post_call's patch may carry `error`, which is decoded but not applied.
      emitHook(box, 'retitle', 'tool.post_call', '{"title":"new","error":"ignored"}'),
      // task.blocked's patch is observation-only: decoded strictly, never applied.
      emitHook(box, 'observe', 'task.blocked', '{"labels":{"team":"core"}}'),
    ]);
    const [post, observe] = await Promise.all([
      box.cli(['hooks', 'fire', 'tool.post_call', '-o', 'json'], { input: '{"title":"old","tool_id":"t"}' }),
      box.cli(['hooks', 'fire', 'task.blocked', '-o', 'json'], { input: '{"task_id":"t1"}' }),
    ]);
    expect(post.code, post.stderr).toBe(0);
    const postOut = parseJson<FireJson>(post.stdout);
    expect(postOut.payload.title).toBe('new');
    expect(postOut.payload).not.toHaveProperty('error');
    const obsOut = parseJson<FireJson>(observe.stdout);
    expect(obsOut.runs.map((r) => r.outcome)).toEqual(['applied']);
    expect(obsOut.payload).not.toHaveProperty('labels');
    // task events are not among the families whose records carry the raw patch.
    expect(obsOut.runs[0]!.patch_applied).toBeNull();
  });

  it('strictly decodes each patch: unknown field, two JSON values, garbage, wrong type fail the hook', async () => {
    const box = makeSandbox();
    const ev = 'tool.pre_call';
    box.writeConfig([
      emitHook(box, 'unknown-field', ev, '{"tool_input":{"x":1},"bogus":1}', { priority: 90 }),
      emitHook(box, 'two-values', ev, '{"tool_input":{"x":2}} {}', { priority: 80 }),
      emitHook(box, 'garbage', ev, 'not json at all', { priority: 70 }),
      emitHook(box, 'wrong-type', ev, '{"read_only":"yes"}', { priority: 60 }),
      emitHook(box, 'not-object', ev, '[1]', { priority: 50 }),
      emitHook(box, 'blank', ev, ' \n\t ', { priority: 40 }),
      emitHook(box, 'good', ev, '{"tool_input":{"x":3}}', { priority: 30 }),
    ]);
    const res = await box.cli(['hooks', 'fire', ev, '-o', 'json'], { input: '{"tool_id":"t","tool_input":{"x":0}}' });
    expect(res.code, res.stderr).toBe(0);
    const out = parseJson<FireJson>(res.stdout);
    const byName = Object.fromEntries(out.runs.map((r) => [r.hook_name, r]));
    const dec = (n: string) => `hooks: decode patch for hook "${n}": `;
    expect(byName['unknown-field']).toMatchObject({
      outcome: 'failed',
      error: `${dec('unknown-field')}json: unknown field "bogus"`,
    });
    expect(byName['two-values']).toMatchObject({
      outcome: 'failed',
      error: `${dec('two-values')}hooks: patch must contain one JSON value`,
    });
    expect(byName.garbage).toMatchObject({
      outcome: 'failed',
      error: `${dec('garbage')}invalid character 'o' in literal null (expecting 'u')`,
    });
    expect(byName['wrong-type']!.outcome).toBe('failed');
    expect(byName['wrong-type']!.error).toMatch(
      /^hooks: decode patch for hook "wrong-type": json: cannot unmarshal string into Go struct field ToolCallPatch\.read_only of type bool$/,
    );
    expect(byName['not-object']!.error).toBe(
      `${dec('not-object')}json: cannot unmarshal array into Go value of type ToolCallPatch`,
    );
    expect(byName.blank).toMatchObject({ outcome: 'applied' });
    expect(byName.blank!.patch_applied).toBeNull(); // an empty patch is no patch
    expect(byName.good).toMatchObject({ outcome: 'applied', patch_applied: { tool_input: { x: 3 } } });
    // Only the good patch reached the payload.
    expect(out.payload.tool_input).toEqual({ x: 3 });
  });
});

describe.concurrent('hooks fire: deny, required failure and guards', () => {
  it('a tool.pre_call deny ends the dispatch denied (exit 1): later sync and async hooks never run', async () => {
    const box = makeSandbox();
    const ev = 'tool.pre_call';
    box.writeConfig([
      emitHook(box, 'rewrite', ev, '{"tool_input":{"path":"safe"}}', { priority: 90 }),
      emitHook(box, 'gate', ev, '{"deny":true,"deny_reason":"  no secret files  "}', { priority: 80 }),
      markerHook(box, 'after', ev, { priority: 70 }),
      markerHook(box, 'audit', ev, { mode: 'async' }),
    ]);
    const input = '{"tool_id":"compozy__write_file","tool_input":{"path":".env"}}';
    const [json, human] = await Promise.all([
      box.cli(['hooks', 'fire', ev, '-o', 'json', '--session', 'deny-json'], { input }),
      box.cli(['hooks', 'fire', ev, '--session', 'deny-human'], { input }),
    ]);
    expect(json.code, json.stderr).toBe(1);
    const out = parseJson<FireJson>(json.stdout);
    expect(out).toMatchObject({
      verdict: 'denied',
      deny_reason: 'no secret files',
      error: 'hooks: event "tool.pre_call" denied: no secret files',
      async_queued: 0,
    });
    // The denying patch and the one before it are applied.
    expect(out.payload.tool_input).toEqual({ path: 'safe' });
    expect(out.runs.map((r) => [r.hook_name, r.outcome])).toEqual([
      ['rewrite', 'applied'],
      ['gate', 'denied'],
    ]);
    expect(ran(box, 'after')).toBe(false);
    expect(ran(box, 'audit')).toBe(false);
    expect(box.records('deny-json').map((r) => r.outcome)).toEqual(['applied', 'denied']);

    expect(human.code, human.stderr).toBe(1);
    expect(human.stdout).toMatch(/verdict\s+denied/);
    expect(human.stdout).toMatch(/reason\s+no secret files/);
    expect(human.stdout).toContain('session deny-human');
  });

  it('a tool.post_call deny only stops the chain (verdict stopped, exit 0, async hooks not queued)', async () => {
    const box = makeSandbox();
    const ev = 'tool.post_call';
    box.writeConfig([
      emitHook(box, 'stopper', ev, '{"deny":true,"deny_reason":"enough"}', { priority: 90 }),
      markerHook(box, 'after', ev, { priority: 80 }),
      markerHook(box, 'audit', ev, { mode: 'async' }),
    ]);
    const res = await box.cli(['hooks', 'fire', ev, '-o', 'json'], { input: '{"tool_id":"t"}' });
    expect(res.code, res.stderr).toBe(0);
    const out = parseJson<FireJson>(res.stdout);
    expect(out).toMatchObject({ verdict: 'stopped', deny_reason: 'enough', error: null, async_queued: 0 });
    expect(out.runs.map((r) => r.outcome)).toEqual(['denied']);
    expect(ran(box, 'after')).toBe(false);
    expect(ran(box, 'audit')).toBe(false);
  });

  it('sets denied/deny_reason where the payload has them, and an automation cancel denies (exit 1)', async () => {
    const box = makeSandbox();
    const seen = join(box.out, 'automation-payload.json');
    box.writeConfig([
      emitHook(box, 'perm', 'permission.request', '{"deny":true,"deny_reason":"nope"}'),
      emitHook(box, 'cancel', 'automation.job.pre_fire', '{"cancel":true}', { env: { SEEN_FILE: seen } }),
    ]);
    const [perm, auto] = await Promise.all([
      box.cli(['hooks', 'fire', 'permission.request', '-o', 'json'], { input: '{"decision":"allow"}' }),
      box.cli(['hooks', 'fire', 'automation.job.pre_fire', '-o', 'json', '--session', 'auto'], {
        input: '{"job_id":"j1"}',
      }),
    ]);
    // permission.request: deny kind "stop"; its patch's deny lands in `decision`.
    expect(perm.code, perm.stderr).toBe(0);
    const permOut = parseJson<FireJson>(perm.stdout);
    expect(permOut.verdict).toBe('stopped');
    expect(permOut.runs[0]!.outcome).toBe('denied');

    expect(auto.code, auto.stderr).toBe(1);
    const autoOut = parseJson<FireJson>(auto.stdout);
    expect(autoOut.verdict).toBe('denied');
    expect(autoOut.error).toBe('hooks: event "automation.job.pre_fire" denied');
    // The automation payload has no event/timestamp/session_id/workspace: none was invented.
    expect(JSON.parse(readFileSync(seen, 'utf8'))).toEqual({ job_id: 'j1' });
    expect(autoOut.session_id).toBe('auto');
  });

  it('a required hook that fails ends the dispatch (exit 3); an optional one does not', async () => {
    const box = makeSandbox();
    const ev = 'tool.pre_call';
    box.writeConfig([
      {
        name: 'optional-broken',
        event: ev,
        mode: 'sync',
        priority: 90,
        command: box.hook('fail-stderr.sh'),
        args: ['oops'],
      },
      emitHook(box, 'fine', ev, '{"tool_input":{"n":1}}', { priority: 80 }),
      {
        name: 'gatekeeper',
        event: ev,
        mode: 'sync',
        required: true,
        priority: 70,
        command: box.hook('fail-stderr.sh'),
        args: ['boom', '7'],
      },
      markerHook(box, 'never', ev, { priority: 60 }),
      markerHook(box, 'never-async', ev, { mode: 'async' }),
    ]);
    const res = await box.cli(['hooks', 'fire', ev, '-o', 'json', '--session', 'req'], { input: '{"tool_id":"t"}' });
    expect(res.code, res.stderr).toBe(3);
    const out = parseJson<FireJson>(res.stdout);
    expect(out.verdict).toBe('failed');
    expect(out.error).toBe(
      'hooks: required hook "gatekeeper" failed for event "tool.pre_call": hook command failed: exit status 7 (stderr: 5 bytes)',
    );
    expect(out.runs.map((r) => [r.hook_name, r.outcome, r.required])).toEqual([
      ['optional-broken', 'failed', false],
      ['fine', 'applied', false],
      ['gatekeeper', 'failed', true],
    ]);
    expect(out.runs[0]!.error).toBe('hook command failed: exit status 1 (stderr: 5 bytes)');
    expect(ran(box, 'never')).toBe(false);
    expect(ran(box, 'never-async')).toBe(false);
    expect(box.records('req')).toHaveLength(3);
  });

  it('a hook that cannot start fails with the resolve error', async () => {
    const box = makeSandbox([
      { name: 'ghost', event: 'tool.pre_call', mode: 'sync', command: 'no-such-command-hookctl' },
      { name: 'not-exec', event: 'tool.pre_call', mode: 'sync', command: join('hooks', 'missing.sh') },
    ]);
    const res = await box.cli(['hooks', 'fire', 'tool.pre_call', '-o', 'json'], { input: '{}' });
    expect(res.code, res.stderr).toBe(0);
    const out = parseJson<FireJson>(res.stdout);
    expect(out.runs.map((r) => [r.hook_name, r.outcome, r.error])).toEqual([
      [
        'ghost',
        'failed',
        'hooks: hook "ghost": resolve executable "no-such-command-hookctl": executable file not found in $PATH',
      ],
      [
        'not-exec',
        'failed',
        'hooks: hook "not-exec": resolve executable "hooks/missing.sh": stat hooks/missing.sh: no such file or directory',
      ],
    ]);
    // No process ran: no process facts.
    expect(out.runs[0]!.exit_code).toBeNull();
  });

  it('guards reject patches (tool_id_immutable, workspace_immutable, permission_escalation); the chain goes on', async () => {
    const box = makeSandbox();
    box.writeConfig([
      emitHook(box, 'swap-tool', 'tool.pre_call', '{"tool_id":"compozy__shell"}', { priority: 90 }),
      emitHook(box, 'same-tool', 'tool.pre_call', '{"tool_id":"compozy__read_file","read_only":true}', {
        priority: 80,
      }),
      emitHook(box, 'move-ws', 'session.pre_resume', '{"workspace_id":"ws-2","session_name":"x"}', { priority: 90 }),
      emitHook(box, 'rename', 'session.pre_resume', '{"session_name":"renamed"}', { priority: 80 }),
      emitHook(box, 'escalate', 'permission.request', '{"decision":"allow"}', { priority: 90 }),
      emitHook(box, 'reason', 'permission.request', '{"reason":"kept"}', { priority: 80 }),
    ]);
    const [tool, resume, perm] = await Promise.all([
      box.cli(['hooks', 'fire', 'tool.pre_call', '-o', 'json'], {
        input: '{"tool_id":"compozy__read_file","read_only":false}',
      }),
      box.cli(['hooks', 'fire', 'session.pre_resume', '-o', 'json'], { input: '{"workspace_id":"ws-1"}' }),
      box.cli(['hooks', 'fire', 'permission.request', '-o', 'json'], { input: '{"decision":"deny-always"}' }),
    ]);
    for (const r of [tool, resume, perm]) expect(r.code, r.stderr).toBe(0);
    const t = parseJson<FireJson>(tool.stdout);
    expect(t.runs.map((r) => [r.hook_name, r.outcome, r.error])).toEqual([
      [
        'swap-tool',
        'rejected',
        'hooks: hook patch rejected: hooks: cannot change immutable tool_id from "compozy__read_file" to "compozy__shell"',
      ],
      ['same-tool', 'applied', null],
    ]);
    expect(t.payload).toMatchObject({ tool_id: 'compozy__read_file', read_only: true });

    const s = parseJson<FireJson>(resume.stdout);
    expect(s.runs.map((r) => [r.hook_name, r.outcome])).toEqual([
      ['move-ws', 'rejected'],
      ['rename', 'applied'],
    ]);
    expect(s.runs[0]!.error).toBe(
      'hooks: hook patch rejected: hooks: cannot change immutable session workspace_id from "ws-1" to "ws-2"',
    );
    // The rejected patch was not applied, not even its allowed field.
    expect(s.payload).toMatchObject({ workspace_id: 'ws-1', session_name: 'renamed' });

    const p = parseJson<FireJson>(perm.stdout);
    expect(p.runs.map((r) => [r.hook_name, r.outcome, r.error])).toEqual([
      ['escalate', 'rejected', 'hooks: hook patch rejected: hooks: permission escalation blocked'],
      ['reason', 'applied', null],
    ]);
    expect(p.payload.decision).toBe('deny-always');
  });
});

describe.concurrent('hooks fire: refusals (exit 2: nothing runs, nothing is recorded)', () => {
  it('refuses a payload that is not one JSON object', async () => {
    const box = makeSandbox();
    box.writeConfig([markerHook(box, 'm', 'tool.pre_call')]);
    const payloadFile = join(box.out, 'payload.json');
    writeFileSync(payloadFile, '["not","an","object"]');
    const cases: [string, string[], string | undefined][] = [
      ['array', ['--payload', payloadFile], undefined],
      ['garbage', [], '{"tool_id": '],
      ['string', [], '"hello"'],
      ['null', [], 'null'],
      ['two values', [], '{} {}'],
    ];
    const results = await Promise.all(
      cases.map(([label, extra, input]) =>
        box.cli(['hooks', 'fire', 'tool.pre_call', '--session', `bad-${label.replace(' ', '-')}`, ...extra], { input }),
      ),
    );
    results.forEach((res, i) => {
      const [label] = cases[i]!;
      expect(res.code, `${label}: ${res.stderr}`).toBe(2);
      // SPEC §7.4: where (the payload file, or <stdin>) and, for bad JSON, the line and column
      expect(res.stderr).toMatch(
        /^hookctl: (<stdin>|\S+payload\.json)(:\d+:\d+: invalid JSON: |: payload must be a JSON object, got)/,
      );
      expect(res.stderr.split('\n').length).toBeLessThanOrEqual(3); // a short message, no stack
      expect(existsSync(box.logFile(`bad-${label.replace(' ', '-')}`))).toBe(false);
    });
    expect(results[0]!.stderr).toContain('payload must be a JSON object, got an array');
    expect(ran(box, 'm')).toBe(false);
    // The JSON error document with -o json.
    const json = await box.cli(['hooks', 'fire', 'tool.pre_call', '-o', 'json'], { input: '[]' });
    expect(json.code).toBe(2);
    expect(parseJson(json.stdout)).toMatchObject({ error: { code: 'invalid_payload' } });
    const [missing, badSession, badPayloadSession] = await Promise.all([
      box.cli(['hooks', 'fire', 'tool.pre_call', '--payload', join(box.out, 'nope.json')]),
      box.cli(['hooks', 'fire', 'tool.pre_call', '--session', '../escape'], { input: '{}' }),
      box.cli(['hooks', 'fire', 'tool.pre_call'], { input: '{"session_id":"a/b"}' }),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read payload file');
    expect(badSession.code).toBe(2);
    expect(badSession.stderr).toContain('invalid session id "../escape"');
    expect(badPayloadSession.code).toBe(2);
    expect(existsSync(join(box.home, 'escape'))).toBe(false);
    expect(existsSync(join(box.home, 'sessions', 'a'))).toBe(false);
    expect(ran(box, 'm')).toBe(false);
  });

  it('refuses to fire while any declaration has an error, listing them', async () => {
    const box = makeSandbox();
    box.writeConfig([
      markerHook(box, 'good', 'tool.pre_call'),
      { name: 'typo', event: 'tool.pre_call', mode: 'sync', command: 'true', matcher: { tool_idd: 'x' } },
      { name: 'bad-mode', event: 'prompt.post_assemble', command: 'true', extra: 'mode = "sometimes"' },
    ]);
    const res = await box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'refused'], { input: '{}' });
    expect(res.code, res.stdout).toBe(2);
    expect(res.stderr).toContain('refusing to fire "tool.pre_call": 2 declaration errors');
    expect(res.stderr).toMatch(/config\.toml:\d+: .*invalid hook mode "sometimes"/);
    expect(res.stderr).toMatch(/config\.toml:\d+: .*tool_idd/);
    expect(ran(box, 'good')).toBe(false);
    expect(existsSync(box.logFile('refused'))).toBe(false);
    const json = await box.cli(['hooks', 'fire', 'tool.pre_call', '--json'], { input: '{}' });
    expect(json.code).toBe(2);
    const err = parseJson<{ error: { code: string; diagnostics: unknown[] } }>(json.stdout).error;
    expect(err.code).toBe('declarations_invalid');
    expect(err.diagnostics).toHaveLength(2);
  });

  it('refuses an unknown or removed event', async () => {
    const box = makeSandbox();
    const [unknown, removed, noArg] = await Promise.all([
      box.cli(['hooks', 'fire', 'tool.pre_cal']),
      box.cli(['hooks', 'fire', 'on_session_created']),
      box.cli(['hooks', 'fire']),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown event "tool.pre_cal"');
    expect(removed.code).toBe(2);
    expect(removed.stderr).toContain('hook event "on_session_created" was removed; use "session.post_create"');
    expect(noArg.code).toBe(2);
  });
});

describe.concurrent('hooks fire: input and output forms', () => {
  it('reads the payload from --payload, from stdin, or uses {} for an empty stdin; fills base fields', async () => {
    const box = makeSandbox();
    const seen = (n: string) => join(box.out, `seen-${n}.json`);
    box.writeConfig([
      emitHook(box, 'see-a', 'prompt.post_assemble', '', { env: { SEEN_FILE: seen('a') } }),
      emitHook(box, 'see-b', 'session.post_create', '', { env: { SEEN_FILE: seen('b') } }),
      emitHook(box, 'see-c', 'tool.pre_call', '', { env: { SEEN_FILE: seen('c') } }),
    ]);
    const file = join(box.out, 'p.json');
    writeFileSync(file, '{"prompt":"from file","session_id":"from-payload"}');
    const [fromFile, fromStdin, empty] = await Promise.all([
      box.cli(['hooks', 'fire', 'prompt.post_assemble', '--payload', file, '-o', 'json'], {
        input: '{"prompt":"ignored"}',
      }),
      box.cli(['hooks', 'fire', 'session.post_create', '-o', 'json', '--session', 'cli-session'], {
        input: '{"session_name":"piped","session_id":"payload-session"}',
      }),
      box.cli(['hooks', 'fire', 'tool.pre_call']), // human output, empty stdin
    ]);
    for (const r of [fromFile, fromStdin, empty]) expect(r.code, r.stderr).toBe(0);

    const a = JSON.parse(readFileSync(seen('a'), 'utf8'));
    expect(readFileSync(seen('a'), 'utf8')).toBe(JSON.stringify(a)); // one compact JSON object
    expect(a).toMatchObject({
      prompt: 'from file',
      session_id: 'from-payload',
      event: 'prompt.post_assemble',
      workspace: box.workspace,
    });
    expect(Date.parse(a.timestamp)).not.toBeNaN();
    expect(parseJson<FireJson>(fromFile.stdout).session_id).toBe('from-payload'); // from the payload
    expect(existsSync(box.logFile('from-payload'))).toBe(true);

    const b = JSON.parse(readFileSync(seen('b'), 'utf8'));
    // SPEC §7.3: --session is the run's session and replaces the payload's, so hook and ledger agree
    expect(b).toMatchObject({ session_name: 'piped', session_id: 'cli-session' });
    expect(parseJson<FireJson>(fromStdin.stdout).session_id).toBe('cli-session'); // --session wins
    expect(existsSync(box.logFile('cli-session'))).toBe(true);

    // Empty stdin: {} plus base fields, and a generated session id that the output shows.
    const c = JSON.parse(readFileSync(seen('c'), 'utf8'));
    expect(Object.keys(c).sort()).toEqual(['event', 'session_id', 'timestamp', 'workspace']);
    const shown = /session (\S+)/.exec(empty.stdout)?.[1];
    expect(shown).toBeDefined();
    expect(c.session_id).toBe(shown);
    expect(box.records(shown!)).toHaveLength(1);
    expect(empty.stdout).toMatch(/see-c\s+sync\s+applied/);
  });

  it('--payload-only prints the final payload alone', async () => {
    const box = makeSandbox();
    box.writeConfig([emitHook(box, 'p', 'prompt.post_assemble', '{"prompt":"patched"}')]);
    const res = await box.cli(['hooks', 'fire', 'prompt.post_assemble', '--payload-only'], {
      input: '{"prompt":"x","session_id":"s","timestamp":"t","event":"e","workspace":"/w"}',
    });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({
      prompt: 'patched',
      session_id: 's',
      timestamp: 't',
      event: 'e',
      workspace: '/w',
    });
  });

  it('--dry-run lists every declaration with, per matcher field, pattern, value and verdict; runs and records nothing', async () => {
    const box = makeSandbox();
    const ev = 'tool.pre_call';
    box.writeConfig([
      markerHook(box, 'by-tool', ev, { matcher: { tool_id: 'compozy__*' } }),
      markerHook(box, 'other-tool', ev, { matcher: { tool_id: 'mcp__*', tool_read_only: true } }),
      markerHook(box, 'here', ev, { matcher: { workspace_root: box.workspace }, mode: 'async' }),
      markerHook(box, 'off', ev, { enabled: false }),
    ]);
    const res = await box.cli(['hooks', 'fire', ev, '--dry-run', '-o', 'json', '--session', 'dry'], {
      input: '{"tool_id":"compozy__read_file","read_only":true}',
    });
    expect(res.code, res.stderr).toBe(0);
    const plan = parseJson<{ event: string; dialect: string; plan: Record<string, unknown>[] }>(res.stdout);
    expect(plan).toMatchObject({ event: ev, dialect: 'compozy' });
    const byName = Object.fromEntries(plan.plan.map((p) => [p.name, p]));
    expect(byName['by-tool']).toMatchObject({
      source: 'config',
      mode: 'sync',
      matched: true,
      fields: [{ field: 'tool_id', pattern: 'compozy__*', value: 'compozy__read_file', matched: true }],
    });
    expect(byName['other-tool']!.matched).toBe(false);
    expect(byName['other-tool']!.fields).toEqual(
      expect.arrayContaining([
        { field: 'tool_id', pattern: 'mcp__*', value: 'compozy__read_file', matched: false },
        { field: 'tool_read_only', pattern: true, value: true, matched: true },
      ]),
    );
    // Matchers see the payload fire would send: the workspace is filled in.
    expect(byName.here).toMatchObject({
      mode: 'async',
      matched: true,
      fields: [{ field: 'workspace_root', pattern: box.workspace, value: box.workspace, matched: true }],
    });
    expect(byName.off).toMatchObject({ matched: false, status: 'disabled' });
    for (const n of ['by-tool', 'other-tool', 'here', 'off']) expect(ran(box, n)).toBe(false);
    expect(existsSync(box.logFile('dry'))).toBe(false);

    const human = await box.cli(['hooks', 'fire', ev, '--dry-run'], { input: '{"tool_id":"compozy__read_file"}' });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/by-tool.*yes.*tool_id "compozy__\*" vs "compozy__read_file": match/);
    expect(human.stdout).toMatch(/other-tool.*no/);
    expect(human.stdout).toMatch(/off.*no.*disabled/);
  });

  it('-o jsonl streams one record per line as each run ends', async () => {
    const box = makeSandbox();
    const ev = 'tool.pre_call';
    box.writeConfig([
      emitHook(box, 'quick', ev, '{}', { priority: 90 }),
      { name: 'slow', event: ev, mode: 'sync', priority: 80, command: box.hook('sleep.sh'), args: ['1.2'] },
      emitHook(box, 'last', ev, '{}', { priority: 70 }),
    ]);
    const { spawn } = await import('node:child_process');
    const { binPath } = await import('../support/cli.js');
    const started = performance.now();
    const lines: { at: number; line: string }[] = [];
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [binPath, 'hooks', 'fire', ev, '-o', 'jsonl', '--workspace', box.workspace, '--session', 'stream'],
        {
          env: box.env,
        },
      );
      let buf = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        buf += d;
        let nl;
        while ((nl = buf.indexOf('\n')) !== -1) {
          lines.push({ at: performance.now() - started, line: buf.slice(0, nl) });
          buf = buf.slice(nl + 1);
        }
      });
      child.on('close', (c) => resolve(c));
      child.stdin.on('error', () => {}); // EPIPE when hookctl exits before reading it
      child.stdin.end('{}');
    });
    const ended = performance.now() - started;
    expect(code).toBe(0);
    const records = lines.map((l) => JSON.parse(l.line));
    expect(records.map((r) => r.hook_name)).toEqual(['quick', 'slow', 'last']);
    expect(records.map((r) => r.run_id)).toEqual(box.records('stream').map((r) => r.run_id));
    // The first record came out while the slow hook was still running.
    expect(ended - lines[0]!.at).toBeGreaterThan(800);
  });

  it("hooks info NAME shows that hook's last runs", async () => {
    const box = makeSandbox();
    box.writeConfig([emitHook(box, 'watched', 'tool.pre_call', '{}'), emitHook(box, 'other', 'tool.pre_call', 'bad')]);
    for (let i = 0; i < 2; i++) {
      const r = await box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'info'], { input: '{}' });
      expect(r.code, r.stderr).toBe(0);
    }
    const [json, human] = await Promise.all([
      box.cli(['hooks', 'info', 'watched', '-o', 'json']),
      box.cli(['hooks', 'info', 'other']),
    ]);
    expect(json.code, json.stderr).toBe(0);
    const info = parseJson<{ name: string; runs: { hook_name: string; outcome: string }[] }>(json.stdout);
    expect(info.runs).toHaveLength(2);
    expect(info.runs.every((r) => r.hook_name === 'watched' && r.outcome === 'applied')).toBe(true);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/failed/);
    expect(human.stdout).toContain('hooks: decode patch for hook "other"');
  });
});
