import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCompozyRelease } from '../../src/dialects/compozy/release-selection.js';
import { resolveCompozyRelease } from '../../src/dialects/compozy/releases.js';
import { patchType, type PatchType } from '../../src/dialects/compozy/payload-types.js';
import { applyPatch, decodePatch, uniqueTrimmed } from '../../src/dialects/compozy/dispatch/patch.js';

// Decoding and applying are the same in every release; these patches (sandbox ones among them)
// are those of pre-retire, the last release that still has the Sandbox family.
beforeAll(() => useCompozyRelease(resolveCompozyRelease('pre-retire')));
afterAll(() => useCompozyRelease(undefined));

function typeOf(name: string): PatchType {
  const t = patchType(name);
  if (!t) throw new Error(`no patch type ${name}`);
  return t;
}

function decode(stdout: string, name = 'ToolCallPatch') {
  return decodePatch(stdout, 'h1', name, typeOf(name));
}

function decodeError(stdout: string, name = 'ToolCallPatch'): string {
  const r = decode(stdout, name);
  if (r.ok) throw new Error(`decoded ${JSON.stringify(r.patch)}`);
  return r.error;
}

function fields(stdout: string, name = 'ToolCallPatch'): Record<string, unknown> {
  const r = decode(stdout, name);
  if (!r.ok) throw new Error(r.error);
  return r.patch.fields;
}

const PREFIX = 'hooks: decode patch for hook "h1": ';

describe('decodePatch', () => {
  it('reads empty and white-space stdout as the empty patch', () => {
    for (const out of ['', '  \n\t ']) {
      const r = decode(out);
      expect(r).toEqual({ ok: true, patch: { raw: {}, fields: {}, empty: true } });
    }
  });

  it('decodes an object with known fields, keeping the raw object', () => {
    const r = decode('  {"tool_id": "x", "read_only": true, "tool_input": [1, {"a": null}]}\n');
    expect(r.ok && r.patch.fields).toEqual({ tool_id: 'x', read_only: true, tool_input: [1, { a: null }] });
    expect(r.ok && r.patch.empty).toBe(false);
  });

  it('refuses an unknown field by name', () => {
    expect(decodeError('{"tool_id": "x", "bogus": 1}')).toBe(PREFIX + 'json: unknown field "bogus"');
  });

  it('refuses more than one JSON value, or trailing data', () => {
    for (const out of ['{} {}', '{"deny": true}\n{"deny": false}', '{} x', '{}]']) {
      expect(decodeError(out)).toBe(PREFIX + 'hooks: patch must contain one JSON value');
    }
  });

  it('words syntax errors as Go does', () => {
    expect(decodeError('x')).toBe(PREFIX + "invalid character 'x' looking for beginning of value");
    expect(decodeError('{"deny": tru }')).toBe(PREFIX + "invalid character ' ' in literal true (expecting 'e')");
    expect(decodeError('{"deny" true}')).toBe(PREFIX + "invalid character 't' after object key");
    expect(decodeError('{"deny": true,}')).toBe(
      PREFIX + "invalid character '}' looking for beginning of object key string",
    );
    expect(decodeError('{"deny": true "x"}')).toBe(PREFIX + "invalid character '\"' after object key:value pair");
    expect(decodeError('{"tool_input": [1 2]}')).toBe(PREFIX + "invalid character '2' after array element");
    expect(decodeError('{"tool_id": "a\nb"}')).toBe(PREFIX + "invalid character '\\n' in string literal");
    expect(decodeError('{"tool_id": "\\q"}')).toBe(PREFIX + "invalid character 'q' in string escape code");
    expect(decodeError('{"tool_input": -x}')).toBe(PREFIX + "invalid character 'x' in numeric literal");
    // A patch cut by the 8 KiB capture ends inside a string.
    expect(decodeError('{"tool_id": "abc...[truncated]')).toBe(PREFIX + 'unexpected EOF');
    expect(decodeError('{')).toBe(PREFIX + 'unexpected EOF');
  });

  it('refuses a first value that is not an object', () => {
    expect(decodeError('[]')).toBe(PREFIX + 'json: cannot unmarshal array into Go value of type ToolCallPatch');
    expect(decodeError('"deny"')).toBe(PREFIX + 'json: cannot unmarshal string into Go value of type ToolCallPatch');
    expect(decodeError('null')).toBe(PREFIX + 'json: cannot unmarshal null into Go value of type ToolCallPatch');
    // The type error comes before the trailing-data check, as Go's first Decode reports it.
    expect(decodeError('1 2')).toBe(PREFIX + 'json: cannot unmarshal number into Go value of type ToolCallPatch');
  });

  it('refuses values of the wrong type, naming the field and the Go type', () => {
    expect(decodeError('{"deny": "yes"}')).toBe(
      PREFIX + 'json: cannot unmarshal string into Go struct field ToolCallPatch.deny of type bool',
    );
    expect(decodeError('{"tool_id": 5}')).toBe(
      PREFIX + 'json: cannot unmarshal number into Go struct field ToolCallPatch.tool_id of type string',
    );
    expect(decodeError('{"priority_min": 1.5}', 'TaskRunPreClaimPatch')).toBe(
      PREFIX + 'json: cannot unmarshal number 1.5 into Go struct field TaskRunPreClaimPatch.priority_min of type int',
    );
    expect(decodeError('{"add_required_capabilities": "gpu"}', 'TaskRunPreClaimPatch')).toBe(
      PREFIX +
        'json: cannot unmarshal string into Go struct field TaskRunPreClaimPatch.add_required_capabilities of type []string',
    );
    expect(decodeError('{"add_required_capabilities": ["gpu", 3]}', 'TaskRunPreClaimPatch')).toBe(
      PREFIX +
        'json: cannot unmarshal number into Go struct field TaskRunPreClaimPatch.add_required_capabilities of type string',
    );
    expect(decodeError('{"labels": {"a": 1}}', 'TurnStartPatch')).toBe(
      PREFIX + 'json: cannot unmarshal number into Go struct field TurnStartPatch.labels of type string',
    );
  });

  it('checks nested struct fields, unknown keys included', () => {
    expect(decodeError('{"child_permissions": {"tools": ["a"], "nope": []}}', 'SpawnCreatePatch')).toBe(
      PREFIX + 'json: unknown field "nope"',
    );
    expect(decodeError('{"child_permissions": {"tools": "a"}}', 'SpawnCreatePatch')).toBe(
      PREFIX +
        'json: cannot unmarshal string into Go struct field SpawnCreatePatch.child_permissions.tools of type []string',
    );
    expect(decodeError('{"context_blocks": [{"kind": "k", "text": 1}]}', 'PromptPatch')).toBe(
      PREFIX + 'json: cannot unmarshal number into Go struct field PromptPatch.context_blocks.text of type string',
    );
  });

  it('reports the first error in document order', () => {
    expect(decodeError('{"bogus": 1, "deny": "x"}')).toBe(PREFIX + 'json: unknown field "bogus"');
    expect(decodeError('{"deny": "x", "bogus": 1}')).toContain('ToolCallPatch.deny of type bool');
  });

  it('matches keys case-insensitively and treats null as absent, as Go does', () => {
    expect(fields('{"Deny": true, "TOOL_ID": "t"}')).toEqual({ deny: true, tool_id: 't' });
    expect(fields('{"deny": null, "tool_id": null}')).toEqual({});
  });

  it('strictly decodes observation-only patches too', () => {
    expect(decodeError('{"x": 1}', 'SandboxReadyPatch')).toBe(PREFIX + 'json: unknown field "x"');
    expect(fields('{}', 'SandboxReadyPatch')).toEqual({});
  });

  it('survives absurd nesting without a crash', () => {
    const deep = '{"tool_input": ' + '['.repeat(5000) + ']'.repeat(5000) + '}';
    expect(decodeError(deep)).toBe(PREFIX + 'exceeded max depth');
  });
});

describe('applyPatch', () => {
  it('replaces applied fields that are present and leaves the input untouched', () => {
    const payload = { tool_id: 'a', read_only: false, tool_input: { x: 1 }, session_id: 's' };
    const before = structuredClone(payload);
    const next = applyPatch(payload, { read_only: true, tool_input: { y: 2 } }, typeOf('ToolCallPatch'));
    expect(next).toEqual({ tool_id: 'a', read_only: true, tool_input: { y: 2 }, session_id: 's' });
    expect(payload).toEqual(before);
  });

  it('ignores decoded fields that are not applied', () => {
    // ToolPostErrorPatch applies title and error, not tool_result.
    const next = applyPatch({ title: 't', error: 'e' }, { title: 'T', tool_result: 1 }, typeOf('ToolPostErrorPatch'));
    expect(next).toEqual({ title: 'T', error: 'e' });
    // deny_reason is decoded but not applied for tool.pre_call.
    expect(applyPatch({}, { deny_reason: 'r' }, typeOf('ToolCallPatch'))).toEqual({});
  });

  it('never applies an observation-only patch', () => {
    const payload = { text: 'a' };
    expect(applyPatch(payload, { text: 'b', role: 'x' }, typeOf('MessageDeltaPatch'))).toBe(payload);
  });

  it('permission deny sets decision to "deny" whatever decision says', () => {
    const t = typeOf('PermissionRequestPatch');
    expect(applyPatch({ decision: 'allow' }, { decision: 'allow', deny: true }, t)).toEqual({ decision: 'deny' });
    expect(applyPatch({ decision: 'ask' }, { decision: 'allow', deny: false }, t)).toEqual({ decision: 'allow' });
  });

  it('deny sets denied, and deny_reason only when deny is true', () => {
    const t = typeOf('SandboxStopPatch');
    expect(applyPatch({}, { deny: true, deny_reason: 'no' }, t)).toEqual({ denied: true, deny_reason: 'no' });
    expect(applyPatch({}, { deny: false, deny_reason: 'no' }, t)).toEqual({});
  });

  it('worktree control copies deny and deny_reason as they are', () => {
    const t = typeOf('WorktreeControlPatch');
    expect(applyPatch({ denied: true }, { deny: false, deny_reason: 'r' }, t)).toEqual({
      denied: false,
      deny_reason: 'r',
    });
  });

  it('unions claim capabilities (trimmed, de-duplicated) and only raises priority_min', () => {
    const t = typeOf('TaskRunPreClaimPatch');
    const payload = { criteria: { required_capabilities: ['gpu', ' linux '], priority_min: 5, run_id: 'r' } };
    const next = applyPatch(payload, { add_required_capabilities: [' gpu', 'arm', 'arm '], priority_min: 3 }, t);
    expect(next).toEqual({
      criteria: { required_capabilities: ['gpu', 'linux', 'arm'], priority_min: 5, run_id: 'r' },
    });
    expect(applyPatch(payload, { priority_min: 9 }, t)).toEqual({
      criteria: { required_capabilities: ['gpu', ' linux '], priority_min: 9, run_id: 'r' },
    });
    expect(payload.criteria.priority_min).toBe(5);
    // A payload without criteria gets them created.
    expect(applyPatch({}, { add_required_capabilities: ['x'], priority_min: 2 }, t)).toEqual({
      criteria: { required_capabilities: ['x'], priority_min: 2 },
    });
  });

  it('trims the (trimmed) fields, and permission sets per category', () => {
    const next = applyPatch(
      {},
      { agent_name: ' a ', spawn_role: 'r ', ttl_seconds: 5, child_permissions: { tools: [' t', 't', ''] } },
      typeOf('SpawnCreatePatch'),
    );
    expect(next).toEqual({ agent_name: 'a', spawn_role: 'r', ttl_seconds: 5, child_permissions: { tools: ['t'] } });
    expect(applyPatch({}, { model: ' m ' }, typeOf('CoordinatorSpawnPatch'))).toEqual({ model: 'm' });
  });

  it('uniqueTrimmed keeps first occurrences and drops blanks', () => {
    expect(uniqueTrimmed([' a', 'b', 'a ', '  ', 'c'])).toEqual(['a', 'b', 'c']);
  });
});
