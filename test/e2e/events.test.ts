// `hooks events` end to end (SPEC §2.5, §4.1, §6): the built CLI shows both dialects' catalogs
// (the 100 events of the newest CompozyOS release and the 8 cosh events), filters them, details one event with its payload
// and patch fields, and prints them as JSON Schema.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';

interface EventRow {
  event: string;
  dialect: 'compozy' | 'cosh' | 'claude' | 'codex';
  family: string | null;
  sync_eligible: boolean | null;
  deny: string | null;
  payload: string | string[];
  patch: string | null;
  /** claude rows carry their catalog entry too. */
  [extra: string]: unknown;
}

const COSH_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'SessionStart',
  'Stop',
  'BeforeModel',
  'AfterModel',
];

async function rows(...args: string[]): Promise<EventRow[]> {
  const r = await runCli(['hooks', 'events', '-o', 'json', ...args], { env: isolatedEnv() });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as EventRow[];
}

describe('hooks events', { timeout: 120_000 }, () => {
  it('lists every catalog: the newest CompozyOS release (100 events), the 8 cosh events, 33 Claude Code events (2.1.295) and the 12 Codex events, with the SPEC fields', async () => {
    const every = await rows();
    expect(every).toHaveLength(153);
    expect(every.filter((r) => r.dialect === 'codex')).toHaveLength(12);
    const claude = every.filter((r) => r.dialect === 'claude');
    expect(claude).toHaveLength(33);
    // claude rows: the shared fields (family and sync_eligible null), then the catalog entry.
    for (const r of claude) {
      expect(Object.keys(r).slice(0, 7)).toEqual([
        'event',
        'dialect',
        'family',
        'sync_eligible',
        'deny',
        'payload',
        'patch',
      ]);
      expect(r).toMatchObject({ family: null, sync_eligible: null, patch: null, name: r.event });
    }
    expect(claude.find((r) => r.event === 'PreToolUse')).toMatchObject({ deny: 'deny', matcher_field: 'tool_name' });
    const all = every.filter((r) => r.dialect === 'compozy' || r.dialect === 'cosh');
    const compozy = all.filter((r) => r.dialect === 'compozy');
    const cosh = all.filter((r) => r.dialect === 'cosh');
    expect(compozy).toHaveLength(100);
    expect(cosh.map((r) => r.event)).toEqual(COSH_EVENTS);
    expect(new Set(all.map((r) => r.event)).size).toBe(108);
    for (const r of all) {
      expect(Object.keys(r)).toEqual(['event', 'dialect', 'family', 'sync_eligible', 'deny', 'payload', 'patch']);
      expect(typeof r.sync_eligible).toBe('boolean');
      expect(r.payload).not.toBe('');
    }
    expect(all.find((r) => r.event === 'tool.pre_call')).toEqual({
      event: 'tool.pre_call',
      dialect: 'compozy',
      family: 'tool',
      sync_eligible: true,
      deny: 'error',
      payload: 'ToolPreCallPayload',
      patch: 'ToolCallPatch',
    });
    expect(all.find((r) => r.event === 'message.delta')).toMatchObject({ sync_eligible: false });
    // cosh decisions: PreToolUse is interceptable, SessionStart is not
    expect(all.find((r) => r.event === 'PreToolUse')).toMatchObject({ family: 'cosh', deny: 'block' });
    expect(all.find((r) => r.event === 'SessionStart')).toMatchObject({ family: 'cosh', deny: null });
    // compozy deny kinds are error, stop or none
    for (const r of compozy) expect([null, 'error', 'stop']).toContain(r.deny);
  });

  it('--family, --sync-only and --dialect filter the rows', async () => {
    const [all, tool, context, syncOnly, coshOnly, toolSync, none] = await Promise.all([
      rows(),
      rows('--family', 'tool'),
      rows('--family', 'context'),
      rows('--sync-only'),
      rows('--dialect', 'cosh'),
      rows('--family', 'session', '--sync-only'),
      rows('--family', 'no-such-family'),
    ]);
    expect(tool.map((r) => r.event)).toEqual(['tool.pre_call', 'tool.post_call', 'tool.post_error']);
    expect(context.map((r) => r.event)).toEqual(['context.pre_compact', 'context.post_compact']);
    expect(syncOnly).toEqual(all.filter((r) => r.sync_eligible));
    expect(syncOnly.length).toBeLessThan(all.length);
    expect(syncOnly.some((r) => r.event === 'message.delta')).toBe(false);
    expect(coshOnly.map((r) => r.event)).toEqual(COSH_EVENTS);
    expect(toolSync).toEqual(all.filter((r) => r.family === 'session' && r.sync_eligible));
    expect(toolSync.length).toBeGreaterThan(0);
    expect(none).toEqual([]);
  });

  it('human output is a table with Event, Dialect, Family, Sync, Deny, Payload, Patch', async () => {
    const r = await runCli(['hooks', 'events'], { env: isolatedEnv() });
    expect(r.code).toBe(0);
    const [head, ...lines] = r.stdout.trimEnd().split('\n');
    expect(head!.trim().split(/\s{2,}/)).toEqual(['Event', 'Dialect', 'Family', 'Sync', 'Deny', 'Payload', 'Patch']);
    // 153 rows, then which CompozyOS and Claude Code releases the table shows (SPEC §10, claude.md §9)
    expect(lines).toHaveLength(155);
    expect(lines.at(-2)).toBe('Catalog: CompozyOS main-2026-10, the newest (see: hookctl hooks events --changes)');
    expect(lines.at(-1)).toBe('Catalog: Claude Code 2.1.295, the newest (see: hookctl hooks events --changes)');
    expect(
      lines
        .find((l) => l.startsWith('Stop ') && l.includes('claude'))!
        .split(/\s{2,}/)
        .slice(0, 5),
    ).toEqual(['Stop', 'claude', '-', '-', 'block']);
    expect(lines.find((l) => l.startsWith('tool.pre_call '))!.split(/\s{2,}/)).toEqual([
      'tool.pre_call',
      'compozy',
      'tool',
      'yes',
      'error',
      'ToolPreCallPayload',
      'ToolCallPatch',
    ]);
    expect(
      lines
        .find((l) => l.startsWith('SessionStart '))!
        .split(/\s{2,}/)
        .slice(0, 5),
    ).toEqual(['SessionStart', 'cosh', 'cosh', 'yes', '-']);
    const jsonl = await runCli(['hooks', 'events', '-o', 'jsonl'], { env: isolatedEnv() });
    expect(
      jsonl.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(await rows());
  });

  it('hooks events tool.pre_call shows its payload and patch fields', async () => {
    const r = await runCli(['hooks', 'events', 'tool.pre_call'], { env: isolatedEnv() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^tool\.pre_call {2}\(compozy, family tool\)$/m);
    expect(r.stdout).toMatch(/^Sync +yes$/m);
    expect(r.stdout).toMatch(/^Deny +error \(patch field "deny"\)$/m);
    expect(r.stdout).toMatch(/^Matcher +.*\btool_id\b.*\btool_read_only\b/m);
    expect(r.stdout).toMatch(/^Payload ToolPreCallPayload$/m);
    expect(r.stdout).toMatch(/^Patch ToolCallPatch$/m);
    for (const field of ['tool_id +string', 'read_only +boolean', 'tool_input +json', 'session_id +string']) {
      expect(r.stdout).toMatch(new RegExp(`^${field}`, 'm'));
    }
    expect(r.stdout).toMatch(/^deny +boolean +no$/m);
    expect(r.stdout).toMatch(/^tool_input +json +yes$/m);

    const json = await runCli(['hooks', 'events', 'tool.pre_call', '-o', 'json'], { env: isolatedEnv() });
    const detail = JSON.parse(json.stdout);
    expect(detail).toMatchObject({
      event: 'tool.pre_call',
      dialect: 'compozy',
      family: 'tool',
      payload: 'ToolPreCallPayload',
      patch: 'ToolCallPatch',
    });
    expect(detail.patch_fields.map((f: { name: string }) => f.name)).toEqual([
      'deny',
      'deny_reason',
      'tool_id',
      'read_only',
      'tool_input',
    ]);
    expect(detail.payload_fields.map((f: { name: string }) => f.name)).toEqual(
      expect.arrayContaining(['tool_id', 'read_only', 'tool_input', 'agent_name']),
    );
    expect(detail.matcher_fields).toEqual([
      'agent_name',
      'workspace_id',
      'workspace_root',
      'worktree_id',
      'tool_id',
      'tool_read_only',
    ]);
  });

  it('a cosh event shows its input fields and the decision output', async () => {
    const r = await runCli(['hooks', 'events', 'PreToolUse', '--dialect', 'cosh', '-o', 'json'], {
      env: isolatedEnv(),
    });
    expect(r.code).toBe(0);
    const detail = JSON.parse(r.stdout);
    expect(detail).toMatchObject({ event: 'PreToolUse', dialect: 'cosh', deny: 'block', deny_field: 'decision' });
    expect(detail.payload_fields.map((f: { name: string }) => f.name)).toEqual(
      expect.arrayContaining(['session_id', 'cwd', 'hook_event_name', 'tool_name', 'tool_input']),
    );
    expect(detail.patch_fields.map((f: { name: string }) => f.name)).toEqual(
      expect.arrayContaining(['decision', 'reason', 'systemMessage']),
    );
  });

  it('--schema prints the payload and patch as valid draft-07 JSON Schemas that accept and reject as documented', async () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const r = await runCli(['hooks', 'events', 'tool.pre_call', '--schema'], { env: isolatedEnv() });
    expect(r.code, r.stderr).toBe(0);
    const schemas = JSON.parse(r.stdout);
    expect(Object.keys(schemas)).toEqual(['payload', 'patch']);
    for (const s of Object.values(schemas)) {
      expect(ajv.validateSchema(s as object), JSON.stringify(ajv.errors)).toBe(true);
      expect((s as { $schema: string }).$schema).toBe('http://json-schema.org/draft-07/schema#');
    }
    const patch = ajv.compile(schemas.patch);
    expect(patch({ deny: true, deny_reason: 'no' })).toBe(true);
    expect(patch({ tool_input: { path: 'x' } })).toBe(true);
    expect(patch({ denied: true })).toBe(false);
    expect(patch({ deny: 'yes' })).toBe(false);
    const payload = ajv.compile(schemas.payload);
    expect(payload({ tool_id: 'compozy__workspace_info', read_only: true, tool_input: {} })).toBe(true);
    expect(payload({ read_only: 'no' })).toBe(false);

    const cosh = await runCli(['hooks', 'events', 'PreToolUse', '--schema'], { env: isolatedEnv() });
    const coshSchemas = JSON.parse(cosh.stdout);
    for (const s of Object.values(coshSchemas)) expect(ajv.validateSchema(s as object)).toBe(true);
    const input = ajv.compile(coshSchemas.payload);
    expect(
      input({
        session_id: 's',
        transcript_path: '/t',
        cwd: '/w',
        hook_event_name: 'PreToolUse',
        timestamp: '2025-01-01T00:00:00Z',
        tool_name: 'shell',
      }),
    ).toBe(true);
    expect(input({ tool_name: 'shell' })).toBe(false);
  });

  it('an unknown event or --schema without an event is a usage error (exit 2), in JSON too', async () => {
    const [unknown, unknownJson, schemaOnly] = await Promise.all([
      runCli(['hooks', 'events', 'tool.nope'], { env: isolatedEnv() }),
      runCli(['hooks', 'events', 'tool.nope', '--json'], { env: isolatedEnv() }),
      runCli(['hooks', 'events', '--schema'], { env: isolatedEnv() }),
    ]);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr.trim()).toBe('hookctl: unknown event "tool.nope" (see: hookctl hooks events)');
    expect(unknownJson.code).toBe(2);
    expect(JSON.parse(unknownJson.stdout)).toEqual({
      error: { code: 'unknown_event', message: 'unknown event "tool.nope" (see: hookctl hooks events)', exit: 2 },
    });
    expect(schemaOnly.code).toBe(2);
    expect(schemaOnly.stderr).toContain('--schema needs an EVENT');
  });

  it('does not read any declaration: a broken home changes nothing', async () => {
    const r = await runCli(['hooks', 'events', '--family', 'tool', '-o', 'json'], {
      env: isolatedEnv({ compozyHome: '/dev/null/not-a-folder', coshHome: '/dev/null/nope' }),
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect((JSON.parse(r.stdout) as EventRow[]).map((e) => e.event)).toEqual([
      'tool.pre_call',
      'tool.post_call',
      'tool.post_error',
    ]);
  });
});

describe('hooks events: an event cosh, claude and codex share', { timeout: 60_000 }, () => {
  it('shows both entries (JSON: one per dialect, registry order); --dialect picks one; --schema follows it', async () => {
    const both = await runCli(['hooks', 'events', 'PreToolUse', '-o', 'json'], { env: isolatedEnv() });
    expect(both.code, both.stderr).toBe(0);
    const details = JSON.parse(both.stdout);
    expect(details.map((d: { dialect: string }) => d.dialect)).toEqual(['cosh', 'claude', 'codex']);
    expect(details[1]).toMatchObject({
      event: 'PreToolUse',
      family: null,
      decision_kind: 'permission',
      matcher_fields: ['tool_name'],
    });
    const human = await runCli(['hooks', 'events', 'PreToolUse'], { env: isolatedEnv() });
    expect(human.stdout).toMatch(/^PreToolUse {2}\(cosh\b/m);
    expect(human.stdout).toMatch(/^PreToolUse {2}\(claude\)$/m);
    const schema = await runCli(['hooks', 'events', 'PreToolUse', '--schema', '--dialect', 'claude'], {
      env: isolatedEnv(),
    });
    // the JSON Schema itself, not wrapped (claude.md §7, issue 28)
    const s = JSON.parse(schema.stdout);
    expect(s).toMatchObject({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' });
    expect(s.required).toEqual(['session_id', 'transcript_path', 'cwd', 'hook_event_name']);
    expect(s.properties.tool_use_id).toEqual({});
    expect(s).not.toHaveProperty('payload');
    // the detail lists the matcher's known values and the output fields under Output
    const claude = await runCli(['hooks', 'events', 'PreToolUse', '--dialect', 'claude'], { env: isolatedEnv() });
    expect(claude.stdout).toMatch(/^Values +Bash, PowerShell, Edit, Write\b.*\(and others\)$/m);
    expect(claude.stdout).toMatch(/^Output\nField +Meaning\ncontinue +boolean, default true/m);
    expect(claude.stdout).toMatch(/^hookSpecificOutput\.permissionDecision *$/m);
    expect(claude.stdout).not.toMatch(/^Patch/m);
    const unknown = await runCli(['hooks', 'events', 'tool.pre_call', '--dialect', 'claude'], { env: isolatedEnv() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'unknown event "tool.pre_call" for dialect "claude" (see: hookctl hooks events --dialect claude)',
    );
  });
});
