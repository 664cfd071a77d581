import { codexEventNames } from '../../src/dialects/codex/catalog.js';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCompozyRelease } from '../../src/dialects/compozy/release-selection.js';
import { resolveCompozyRelease } from '../../src/dialects/compozy/releases.js';
import {
  AUTONOMY_FIELDS,
  knownMatcherFields,
  REMOVED_LEGACY_EVENTS,
  compozyEvent,
  compozyEvents,
  compozyFamilies,
  familyMatcherFields,
} from '../../src/dialects/compozy/events.js';
import { nestedTypeName, patchType, payloadType } from '../../src/dialects/compozy/payload-types.js';
import { COSH_BASE_INPUT_FIELDS, coshEvent, coshEvents, coshInputFields } from '../../src/dialects/cosh/events.js';
import { compozyEventSchemas } from '../../src/dialects/compozy/event-detail.js';
import { coshEventSchemas } from '../../src/dialects/cosh/event-detail.js';
import { eventDetail, eventRows } from '../../src/app/events.js';

/** Each dialect's schemas of one of its events; undefined when that dialect has no such event. */
function eventSchemas(dialect: 'compozy' | 'cosh', name: string) {
  if (dialect === 'compozy') {
    const event = compozyEvent(name);
    return event && compozyEventSchemas(event);
  }
  const event = coshEvent(name);
  return event && coshEventSchemas(event);
}

const srcEvents = join(dirname(fileURLToPath(import.meta.url)), '../../src/dialects/compozy');

// These tests check the catalog data against v0.3.0-beta.20, whose catalog is upstream main at
// 96a771ef (104 events, 20 families); what other releases change is test/unit/compozy-releases.test.ts.
beforeAll(() => useCompozyRelease(resolveCompozyRelease('v0.3.0-beta.20')));
afterAll(() => useCompozyRelease(undefined));

describe('compozy catalog', () => {
  it('has 104 events in 20 families, names unique', () => {
    expect(compozyEvents()).toHaveLength(104);
    expect(compozyFamilies()).toHaveLength(20);
    expect(new Set(compozyEvents().map((e) => e.name)).size).toBe(104);
    expect(compozyEvents()[0]!.name).toBe('session.pre_create');
  });

  it('keeps the JSON facts', () => {
    const pre = compozyEvent('tool.pre_call')!;
    expect(pre).toMatchObject({ family: 'tool', sync_eligible: true, deny: 'error', deny_field: 'deny' });
    expect(pre.guard).toBe('tool_id_immutable');
    expect(pre.payload).toBe('ToolPreCallPayload');
    expect(pre.patch).toBe('ToolCallPatch');
    expect(compozyEvent('automation.job.pre_fire')).toMatchObject({ deny: 'error', deny_field: 'cancel' });
    expect(compozyEvent('session.post_create')).toMatchObject({ deny: 'stop', guard: null });
    expect(compozyEvent('task.run.pre_claim')!.guard).toBe('task_run_claim');
    expect(compozyEvent('session.message_persisted')).toMatchObject({ sync_eligible: false, deny: null });
  });

  it('gives each event its family fields unless it overrides them', () => {
    expect(familyMatcherFields('context')).toEqual(['worktree_id', 'compaction_trigger']);
    expect(compozyEvent('context.pre_compact')!.matcher_fields).toEqual(['worktree_id', 'compaction_trigger']);
    expect(compozyEvent('session.pre_create')!.matcher_fields).toEqual(familyMatcherFields('session'));
    expect(familyMatcherFields('agent')).toEqual(['agent_name', 'workspace_id', 'workspace_root', 'worktree_id']);
    for (const name of [
      'agent.soul.snapshot.resolved',
      'agent.soul.mutation.after',
      'agent.heartbeat.policy.resolved',
    ]) {
      expect(compozyEvent(name)!.matcher_fields).toEqual(['agent_name', 'workspace_id']);
    }
    expect(compozyEvent('network.participation.pre_resolve')!.matcher_fields).toEqual([
      'workspace_id',
      'channel',
      'participation_mode',
      'participation_source',
    ]);
    expect(familyMatcherFields('task.run')).toContain('loop_run_id');
    expect(familyMatcherFields('nope')).toBeUndefined();
    expect(familyMatcherFields('constructor')).toBeUndefined();
  });

  it('answers undefined for unknown names, prototype keys included', () => {
    expect(compozyEvent('foo.bar')).toBeUndefined();
    expect(compozyEvent('constructor')).toBeUndefined();
    expect(compozyEvent('PreToolUse')).toBeUndefined();
  });

  it('knows every matcher field, agent_type too, but not the retired or non-matcher keys', () => {
    for (const f of [...AUTONOMY_FIELDS, 'agent_type', 'participation_mode', 'compaction_trigger', 'tool_read_only']) {
      expect(knownMatcherFields().has(f), f).toBe(true);
    }
    for (const f of ['tool_namespace', 'compaction_reason', 'compaction_strategy', 'read_only']) {
      expect(knownMatcherFields().has(f), f).toBe(false);
    }
    // agent_type is known yet no family accepts it (SPEC §2.2).
    expect(compozyEvents().some((e) => e.matcher_fields.includes('agent_type'))).toBe(false);
    expect(AUTONOMY_FIELDS).toHaveLength(13);
  });

  it('maps the removed legacy events', () => {
    expect(REMOVED_LEGACY_EVENTS['on_session_created']).toBe('session.post_create');
    expect(REMOVED_LEGACY_EVENTS['on_session_stopped']).toBe('session.post_stop');
    expect(Object.keys(REMOVED_LEGACY_EVENTS)).toHaveLength(2);
    expect(REMOVED_LEGACY_EVENTS['constructor']).toBeUndefined();
  });

  it('resolves every payload, patch, nested type and deny field', () => {
    for (const e of compozyEvents()) {
      const payload = payloadType(e.payload);
      const patch = patchType(e.patch);
      expect(payload, e.payload).toBeDefined();
      expect(patch, e.patch).toBeDefined();
      if (e.deny_field) expect(Object.keys(patch!.fields)).toContain(e.deny_field);
      for (const t of [...Object.values(payload!.fields), ...Object.values(patch!.fields)]) {
        const nested = nestedTypeName(t);
        if (nested) expect(payloadType(nested), nested).toBeDefined();
      }
    }
  });

  it('keeps payload enums and patch application data', () => {
    expect(payloadType('ContextPreCompactPayload')!.enums).toEqual({ trigger: ['requested', 'agent'] });
    expect(payloadType('ContextPostCompactPayload')!.fields.trigger).toBe('string');
    const claim = patchType('TaskRunPreClaimPatch')!;
    expect(claim.applied).toContain('priority_min');
    expect(claim.applied_to?.priority_min).toBe('criteria.priority_min (only raised)');
    expect(patchType('ToolCallPatch')!.applied).toEqual(['tool_id', 'read_only', 'tool_input']);
    expect(patchType('AuthoredContextObservationPatch')!.observation_only).toBe(true);
    expect(payloadType('toString')).toBeUndefined();
    expect(patchType('hasOwnProperty')).toBeUndefined();
  });

  it('marks the generated files as generated', () => {
    for (const f of ['releases.generated.ts', 'release-types.generated.ts']) {
      const head = readFileSync(join(srcEvents, f), 'utf8').split('\n', 1)[0];
      expect(head).toBe('// generated by scripts/gen-catalog.mjs from compozy-events.next.json — do not edit');
    }
  });
});

describe('cosh catalog', () => {
  it('has the eight seed events in seed order', () => {
    expect(coshEvents().map((e) => e.name)).toEqual([
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'UserPromptSubmit',
      'SessionStart',
      'Stop',
      'BeforeModel',
      'AfterModel',
    ]);
  });

  it('knows which decisions each event takes and where a tool matcher applies', () => {
    expect(coshEvent('PreToolUse')).toMatchObject({
      decisions: ['block', 'allow', 'ask'],
      interceptable: true,
      tool_matcher: true,
    });
    expect(coshEvent('PostToolUse')).toMatchObject({ decisions: ['block', 'allow'], tool_matcher: true });
    expect(coshEvent('PostToolUseFailure')).toMatchObject({ decisions: [], interceptable: false, tool_matcher: true });
    expect(coshEvent('Stop')).toMatchObject({
      decisions: ['block', 'allow'],
      interceptable: true,
      tool_matcher: false,
    });
    expect(coshEvent('SessionStart')).toMatchObject({ interceptable: false, tool_matcher: false });
    expect(coshEvent('BeforeModel')!.summary).toBe('Before LLM request is sent');
    expect(coshEvent('tool.pre_call')).toBeUndefined();
    expect(coshEvent('constructor')).toBeUndefined();
  });

  it('describes the stdin fields, base fields first', () => {
    expect(COSH_BASE_INPUT_FIELDS.map((f) => f.name)).toEqual([
      'session_id',
      'transcript_path',
      'cwd',
      'hook_event_name',
      'timestamp',
    ]);
    const pre = coshInputFields('PreToolUse')!;
    expect(pre.slice(0, 5).every((f) => f.base)).toBe(true);
    expect(pre.filter((f) => !f.base).map((f) => f.name)).toEqual(expect.arrayContaining(['tool_name', 'tool_input']));
    expect(coshInputFields('PostToolUse')!.map((f) => f.name)).toContain('tool_response');
    expect(coshInputFields('UserPromptSubmit')!.map((f) => f.name)).toContain('prompt');
    expect(coshInputFields('Nope')).toBeUndefined();
  });
});

describe('event schemas', () => {
  const ajv = new Ajv({ strict: true, allErrors: true });
  const compile = (schema: object) => ajv.compile(schema);

  it('compiles under ajv for every event of both dialects', () => {
    for (const e of compozyEvents()) {
      const s = eventSchemas('compozy', e.name)!;
      expect(s.payload.$schema).toBe('http://json-schema.org/draft-07/schema#');
      compile(s.payload);
      compile(s.patch);
    }
    for (const e of coshEvents()) {
      const s = eventSchemas('cosh', e.name)!;
      compile(s.payload);
      compile(s.patch);
    }
  });

  it('decodes compozy patches strictly', () => {
    const s = eventSchemas('compozy', 'tool.pre_call')!;
    expect(s.patch.description).toBe(compozyEvent('tool.pre_call')!.summary);
    const patch = compile(s.patch);
    expect(patch({ deny: true, deny_reason: 'no', tool_input: { path: '/x' }, read_only: false })).toBe(true);
    expect(patch({})).toBe(true);
    expect(patch({ denied: true })).toBe(false);
    expect(patch.errors?.[0]?.keyword).toBe('additionalProperties');
    expect(patch({ deny: 'yes' })).toBe(false);
  });

  it('puts nested types in definitions, strict inside patches and open inside payloads', () => {
    const prompt = eventSchemas('compozy', 'prompt.post_assemble')!;
    expect(prompt.patch.definitions).toHaveProperty('ContextBlock');
    const patch = compile(prompt.patch);
    expect(patch({ context_blocks: [{ kind: 'note', text: 't', metadata: { a: 'b' } }] })).toBe(true);
    expect(patch({ context_blocks: [{ kind: 'note', extra: 1 }] })).toBe(false);
    expect(patch({ context_blocks: [{ metadata: { a: 1 } }] })).toBe(false);

    const perm = eventSchemas('compozy', 'permission.request')!;
    // ToolLocation is reached only through PermissionToolCall.locations.
    expect(Object.keys(perm.payload.definitions as object)).toEqual(
      expect.arrayContaining(['PermissionToolCall', 'ToolLocation']),
    );
    const payload = compile(perm.payload);
    expect(payload({ tool_call: { id: 'a', locations: [{ path: 'p', start_line: 1 }] }, unknown_extra: 1 })).toBe(true);
    expect(payload({ tool_call: { locations: [{ start_line: 1.5 }] } })).toBe(false);
  });

  it('turns enums into enum', () => {
    const payload = compile(eventSchemas('compozy', 'context.pre_compact')!.payload);
    expect(payload({ trigger: 'agent' })).toBe(true);
    expect(payload({ trigger: 'bogus' })).toBe(false);
  });

  it('describes cosh input and decision output', () => {
    const s = eventSchemas('cosh', 'PreToolUse')!;
    const input = compile(s.payload);
    const base = { session_id: 's', cwd: '/w', hook_event_name: 'PreToolUse', timestamp: 't', transcript_path: '/p' };
    expect(input({ ...base, tool_name: 'shell', tool_input: { command: 'ls' } })).toBe(true);
    expect(input({ tool_name: 'shell' })).toBe(false); // base fields missing
    const output = compile(s.patch);
    expect(
      output({ decision: 'block', reason: 'r', systemMessage: 'm', hookSpecificOutput: { additional_context: 'c' } }),
    ).toBe(true);
    expect(output({})).toBe(true);
    expect(output({ decision: null })).toBe(true);
    expect(output({ decision: '' })).toBe(true);
    expect(output({ continue: false })).toBe(true); // cosh ignores unknown keys
    expect(output({ decision: 'maybe' })).toBe(false);
    expect(output({ hookSpecificOutput: { additional_context: 5 } })).toBe(false);
  });

  it('answers undefined for an event of the other dialect', () => {
    expect(eventSchemas('compozy', 'PreToolUse')).toBeUndefined();
    expect(eventSchemas('cosh', 'tool.pre_call')).toBeUndefined();
  });
});

describe('event rows', () => {
  it('lists compozy first in catalog order, then cosh in seed order, then claude in catalog order (its newest release: 33 events), then codex (12)', () => {
    const rows = eventRows({});
    expect(rows).toHaveLength(157);
    expect(rows.slice(0, 104).map((r) => r.event)).toEqual(compozyEvents().map((e) => e.name));
    expect(rows.slice(104, 112).map((r) => r.event)).toEqual(coshEvents().map((e) => e.name));
    expect(rows.slice(112, 145).every((r) => r.dialect === 'claude')).toBe(true);
    expect(rows.slice(145).map((r) => r.event)).toEqual(codexEventNames());
    expect(rows[0]).toEqual({
      event: 'session.pre_create',
      dialect: 'compozy',
      family: 'session',
      sync_eligible: true,
      deny: 'error',
      payload: 'SessionPreCreatePayload',
      patch: 'SessionCreatePatch',
    });
  });

  it('gives cosh rows their fixed shape', () => {
    const cosh = eventRows({ dialect: 'cosh' });
    expect(cosh).toHaveLength(8);
    expect(cosh[0]).toEqual({
      event: 'PreToolUse',
      dialect: 'cosh',
      family: 'cosh',
      sync_eligible: true,
      deny: 'block',
      payload: 'PreToolUseInput',
      patch: 'HookOutput',
    });
    expect(cosh.find((r) => r.event === 'SessionStart')!.deny).toBeNull();
  });

  it('filters by dialect, family and sync eligibility', () => {
    expect(eventRows({ dialect: 'compozy' })).toHaveLength(104);
    expect(eventRows({ family: 'context' }).map((r) => r.event)).toEqual([
      'context.pre_compact',
      'context.post_compact',
    ]);
    expect(eventRows({ family: 'cosh' })).toHaveLength(8);
    expect(eventRows({ family: 'cosh', dialect: 'compozy' })).toHaveLength(0);
    expect(eventRows({ family: 'nope' })).toEqual([]);
    const sync = eventRows({ syncOnly: true });
    expect(sync.every((r) => r.sync_eligible)).toBe(true);
    expect(sync.map((r) => r.event)).not.toContain('session.message_persisted');
    expect(sync).toHaveLength(compozyEvents().filter((e) => e.sync_eligible).length + 8);
    expect(eventRows({ dialect: 'compozy', family: 'tool', syncOnly: true }).map((r) => r.event)).toContain(
      'tool.pre_call',
    );
  });

  it('details a compozy event with its fields and what is applied', async () => {
    const d = (await eventDetail('tool.pre_call'))!;
    expect(d).toMatchObject({
      dialect: 'compozy',
      guard: 'tool_id_immutable',
      deny_field: 'deny',
      observation_only: false,
    });
    expect(d.patch_fields).toContainEqual({ name: 'tool_input', type: 'json', applied: true });
    expect(d.patch_fields).toContainEqual({ name: 'deny', type: 'boolean', applied: false });
    expect(d.payload_fields).toContainEqual({ name: 'read_only', type: 'boolean' });
    expect(d.matcher_fields).toContain('tool_id');

    const claim = (await eventDetail('task.run.pre_claim'))!;
    expect(claim.patch_fields).toContainEqual({
      name: 'priority_min',
      type: 'integer',
      applied: true,
      applied_to: 'criteria.priority_min (only raised)',
    });
    const compact = (await eventDetail('context.pre_compact'))!;
    expect(compact.payload_fields).toContainEqual({ name: 'trigger', type: 'string', enum: ['requested', 'agent'] });

    const soul = (await eventDetail('agent.soul.mutation.after'))!;
    expect(soul.observation_only).toBe(true);
    expect(soul.patch_fields.every((f) => !f.applied)).toBe(true);
    expect(soul.matcher_fields).toEqual(['agent_name', 'workspace_id']);
  });

  it('details a cosh event', async () => {
    const pre = (await eventDetail('PreToolUse'))!;
    expect(pre).toMatchObject({
      dialect: 'cosh',
      deny: 'block',
      deny_field: 'decision',
      guard: null,
      matcher_fields: ['tool_name'],
    });
    expect(pre.payload_fields[0]).toEqual({ name: 'session_id', type: 'string', base: true });
    expect(pre.payload_fields).toContainEqual({ name: 'tool_name', type: 'string', base: false });
    expect(pre.patch_fields.map((f) => f.name)).toEqual(['decision', 'reason', 'systemMessage', 'hookSpecificOutput']);
    const start = (await eventDetail('SessionStart'))!;
    expect(start).toMatchObject({ deny: null, deny_field: null, matcher_fields: [] });
    expect(start.patch_fields.find((f) => f.name === 'decision')!.applied).toBe(false);
    expect(await eventDetail('foo.bar')).toBeUndefined();
  });
});

describe('start-up cost', () => {
  // The list path (app/events.ts) must not load the payload/patch types statically.
  it('keeps compozy payload types out of the static import graph of app/events.ts', () => {
    const reached = staticImports(join(srcEvents, '../../app/events.ts'));
    expect(reached).toContain(join(srcEvents, 'releases.generated.ts'));
    expect(reached).not.toContain(join(srcEvents, 'release-types.generated.ts'));
    expect(reached).not.toContain(join(srcEvents, 'payload-types.ts'));
  });
});

/** Files reached from `file` through static value imports (type-only imports and import() excluded). */
function staticImports(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [...seen];
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'(\.[^']+)';/gms)) {
    const target = resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts'));
    staticImports(target, seen);
  }
  return [...seen];
}

describe('the newest release, the default (SPEC §10)', () => {
  beforeAll(() => useCompozyRelease(undefined));
  afterAll(() => useCompozyRelease(resolveCompozyRelease('v0.3.0-beta.20')));

  it('has subagent.settled and terminal.*, no sandbox or network; the context patch carries only labels', () => {
    const names = compozyEvents().map((e) => e.name);
    expect(names).toHaveLength(100);
    expect(names).toContain('subagent.settled');
    expect(names).toContain('terminal.limit_rejected');
    expect(names.some((n) => n.startsWith('sandbox.') || n.startsWith('network.'))).toBe(false);
    expect(compozyFamilies()).not.toContain('sandbox');
    expect(compozyEvent('context.pre_compact')).toMatchObject({ deny: null, deny_field: null });
    expect(patchType('ContextPreCompactPatch')).toEqual({
      fields: { labels: 'string_map' },
      applied: [],
      observation_only: true,
    });
    expect(familyMatcherFields('coordinator')).not.toContain('participation_channel');
    expect(knownMatcherFields().has('sandbox_id')).toBe(false);
  });

  it('the event rows and the schemas follow it', () => {
    expect(eventRows({ dialect: 'compozy' }).map((r) => r.event)).toEqual(compozyEvents().map((e) => e.name));
    const schemas = eventSchemas('compozy', 'context.post_compact')!;
    expect(Object.keys((schemas.patch as { properties: object }).properties)).toEqual(['labels']);
    expect(Object.keys((schemas.payload as { properties: object }).properties)).toContain('compaction_id');
  });
});
