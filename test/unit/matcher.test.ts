import { describe, expect, it } from 'vitest';
import { evaluateMatcher, payloadFieldFor, valueMatches } from '../../src/dialects/compozy/matcher.js';
import { releaseCatalog, resolveCompozyRelease } from '../../src/dialects/compozy/releases.js';
import { COSH_MATCHER_EVENTS, coshMatcherError, coshMatcherMatches } from '../../src/dialects/cosh/matcher.js';

describe('payloadFieldFor (SPEC §2.2 field ↔ payload)', () => {
  it.each<[string, string]>([
    ['workspace_root', 'workspace'],
    ['tool_id', 'tool_id'],
    ['tool_read_only', 'read_only'],
    ['tool_name', 'tool_call.kind'],
    ['acp_event_type', 'record_type'],
    ['message_delta_type', 'delta_type'],
    ['compaction_trigger', 'trigger'],
    // autonomy fields read the field of the same name
    ['task_id', 'task_id'],
    ['run_id', 'run_id'],
    ['loop_run_id', 'loop_run_id'],
    ['loop_name', 'loop_name'],
    ['node_id', 'node_id'],
    ['workflow_id', 'workflow_id'],
    ['participation_channel', 'participation_channel'],
    ['coordinator_session_id', 'coordinator_session_id'],
    ['parent_session_id', 'parent_session_id'],
    ['root_session_id', 'root_session_id'],
    ['child_session_id', 'child_session_id'],
    ['spawn_role', 'spawn_role'],
    ['release_reason', 'release_reason'],
    // any other field
    ['agent_name', 'agent_name'],
    ['workspace_id', 'workspace_id'],
    ['input_class', 'input_class'],
    ['decision_class', 'decision_class'],
  ])('%s reads %s', (field, payloadField) => {
    expect(payloadFieldFor(field)).toBe(payloadField);
  });
});

describe('valueMatches', () => {
  it.each<[string, unknown]>([
    ['', 'anything'],
    ['', undefined],
    ['', null],
    ['', 42],
    ['*', 'anything'],
    ['*', ''],
    ['*', undefined],
    ['*', 'a/b'], // `*` is "match everything", not path.Match's `*`
  ])('%j matches every value, e.g. %j', (pattern, value) => {
    expect(valueMatches(pattern, value)).toBe(true);
  });

  it.each<[string, unknown, boolean]>([
    // exact, case-sensitive equality
    ['compozy__workspace_info', 'compozy__workspace_info', true],
    ['compozy__workspace_info', 'Compozy__workspace_info', false],
    ['compozy__workspace_info', 'compozy__workspace_info_x', false],
    ['ws_checkout', 'ws_checkout', true],
    ['a/b', 'a/b', true],
    // wildcard (path.Match)
    ['compozy__*', 'compozy__workspace_info', true],
    ['compozy__*', 'other__workspace_info', false],
    ['release-*', 'release-1.2', true],
    ['release-*', 'release-1/2', false],
    ['ws_?', 'ws_ä', true],
    ['ws_?', 'ws_☺', true],
    ['ws_??', 'ws_☺', false],
    ['[rR]equested', 'Requested', true],
    ['[^r]*', 'requested', false],
    ['a\\*', 'a*', true],
    ['a\\*', 'ab', false],
    // absent or non-string values against a non-empty pattern
    ['user', undefined, false],
    ['u*', undefined, false],
    ['user', null, false],
    ['true', true, false],
    ['*e', { kind: 'e' }, false],
    ['a', ['a'], false],
    // numbers are compared as their text
    ['42', 42, true],
    ['4*', 42, true],
    ['4?', 4, false],
    ['1.5', 1.5, true],
    // malformed pattern (validation's job): never matches, never throws
    ['[', '[', false],
    ['a[', 'a[', false],
    ['\\', '\\', false],
  ])('%j against %j → %j', (pattern, value, expected) => {
    expect(valueMatches(pattern, value)).toBe(expected);
  });

  it.each<[boolean, unknown, boolean]>([
    [true, true, true],
    [false, false, true],
    [true, false, false],
    [false, true, false],
    [false, undefined, false], // absent is not false
    [true, undefined, false],
    [false, 'false', false],
    [false, 0, false],
    [false, null, false],
  ])('boolean %j against %j → %j', (pattern, value, expected) => {
    expect(valueMatches(pattern, value)).toBe(expected);
  });
});

describe('evaluateMatcher', () => {
  it('an empty matcher matches every payload', () => {
    expect(evaluateMatcher({}, {})).toEqual({ matched: true, fields: [] });
    expect(evaluateMatcher({}, { tool_id: 'x' })).toEqual({ matched: true, fields: [] });
  });

  it('reports each field in matcher key order with pattern, value and verdict (AND)', () => {
    const verdict = evaluateMatcher(
      { tool_id: 'compozy__*', tool_read_only: false, workspace_root: '/repo' },
      { tool_id: 'compozy__workspace_info', read_only: true, workspace: '/repo' },
    );
    expect(verdict).toEqual({
      matched: false,
      fields: [
        { field: 'tool_id', pattern: 'compozy__*', value: 'compozy__workspace_info', matched: true },
        { field: 'tool_read_only', pattern: false, value: true, matched: false },
        { field: 'workspace_root', pattern: '/repo', value: '/repo', matched: true },
      ],
    });
  });

  it('matches when every field matches', () => {
    const verdict = evaluateMatcher(
      { tool_id: '*', tool_read_only: false },
      { tool_id: 'compozy__file_write', read_only: false },
    );
    expect(verdict.matched).toBe(true);
    expect(verdict.fields.map((f) => f.matched)).toEqual([true, true]);
  });

  it('tool_read_only = false does not match a payload without read_only', () => {
    const verdict = evaluateMatcher({ tool_read_only: false }, { tool_id: 'x' });
    expect(verdict.matched).toBe(false);
    expect(verdict.fields[0]).toEqual({
      field: 'tool_read_only',
      pattern: false,
      value: undefined,
      matched: false,
    });
  });

  it('tool_read_only reads read_only, not a tool_read_only payload field', () => {
    expect(evaluateMatcher({ tool_read_only: true }, { tool_read_only: true }).matched).toBe(false);
    expect(evaluateMatcher({ tool_read_only: true }, { read_only: true }).matched).toBe(true);
  });

  it('tool_name reads the nested tool_call.kind', () => {
    const payload = { tool_name: 'edit', tool_call: { id: 't1', kind: 'execute', title: 'run' } };
    const verdict = evaluateMatcher({ tool_name: 'exec*' }, payload);
    expect(verdict.matched).toBe(true);
    expect(verdict.fields[0]!.value).toBe('execute');
    expect(evaluateMatcher({ tool_name: 'edit' }, payload).matched).toBe(false);
  });

  it.each<[string, Record<string, unknown>]>([
    ['no tool_call', { tool_name: 'execute' }],
    ['tool_call null', { tool_call: null }],
    ['tool_call a string', { tool_call: 'execute' }],
    ['tool_call an array', { tool_call: ['execute'] }],
    ['tool_call without kind', { tool_call: { id: 't1' } }],
  ])('tool_name against %s is absent', (_label, payload) => {
    const verdict = evaluateMatcher({ tool_name: 'execute' }, payload);
    expect(verdict.matched).toBe(false);
    expect(verdict.fields[0]!.value).toBeUndefined();
    expect(evaluateMatcher({ tool_name: '*' }, payload).matched).toBe(true);
  });

  it('compaction_trigger reads trigger', () => {
    expect(evaluateMatcher({ compaction_trigger: 'requested' }, { trigger: 'requested' }).matched).toBe(true);
    expect(evaluateMatcher({ compaction_trigger: 'requested' }, { trigger: 'agent' }).matched).toBe(false);
    expect(evaluateMatcher({ compaction_trigger: 'requested' }, { compaction_trigger: 'requested' }).matched).toBe(
      false,
    );
    // any other value validates as a pattern but never matches a real trigger
    expect(evaluateMatcher({ compaction_trigger: 'manual' }, { trigger: 'agent' }).matched).toBe(false);
    expect(evaluateMatcher({ compaction_trigger: '' }, { trigger: 'agent' }).matched).toBe(true);
  });

  it('workspace_root, acp_event_type and message_delta_type read their payload fields', () => {
    expect(evaluateMatcher({ workspace_root: '/w/*' }, { workspace: '/w/app' }).matched).toBe(true);
    expect(evaluateMatcher({ workspace_root: '/w/*' }, { workspace_root: '/w/app' }).matched).toBe(false);
    expect(evaluateMatcher({ acp_event_type: 'tool_*' }, { record_type: 'tool_call' }).matched).toBe(true);
    expect(evaluateMatcher({ acp_event_type: 'tool_*' }, { acp_event_type: 'tool_call' }).matched).toBe(false);
    expect(evaluateMatcher({ message_delta_type: 'text' }, { delta_type: 'text' }).matched).toBe(true);
    expect(evaluateMatcher({ message_delta_type: 'text' }, { message_delta_type: 'text' }).matched).toBe(false);
  });

  it('autonomy fields read the payload field of the same name', () => {
    const payload = { workspace_id: 'ws_checkout', workflow_id: 'release-7', task_id: 'task_1' };
    expect(evaluateMatcher({ workspace_id: 'ws_checkout', workflow_id: 'release-*' }, payload).matched).toBe(true);
    expect(evaluateMatcher({ workflow_id: 'hotfix-*' }, payload).matched).toBe(false);
    expect(evaluateMatcher({ task_id: 'task_?' }, payload).matched).toBe(true);
    expect(evaluateMatcher({ run_id: 'run_1' }, payload).matched).toBe(false);
    expect(evaluateMatcher({ run_id: '*' }, payload).matched).toBe(true);
  });

  it('reads own payload properties only', () => {
    expect(evaluateMatcher({ constructor: '*Object*' }, {}).matched).toBe(false);
    expect(evaluateMatcher({ tool_name: '*' }, { tool_call: {} }).fields[0]!.value).toBeUndefined();
    expect(evaluateMatcher({ tool_name: 'x' }, { tool_call: { kind: 'x' } }).matched).toBe(true);
  });

  it('a malformed pattern fails its field instead of throwing', () => {
    const verdict = evaluateMatcher({ agent_name: '[', input_class: 'user' }, { agent_name: '[', input_class: 'user' });
    expect(verdict.matched).toBe(false);
    expect(verdict.fields.map((f) => f.matched)).toEqual([false, true]);
  });
});

describe('cosh matcher', () => {
  it('applies on the three tool events only', () => {
    expect([...COSH_MATCHER_EVENTS]).toEqual(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);
    expect(Object.isFrozen(COSH_MATCHER_EVENTS)).toBe(true);
  });

  it.each<[string | undefined, unknown, boolean]>([
    // empty or absent matcher: every tool, a missing tool name included
    [undefined, 'run_shell_command', true],
    ['', 'run_shell_command', true],
    [undefined, undefined, true],
    ['', undefined, true],
    // unanchored search
    ['shell', 'run_shell_command', true],
    ['shell', 'shell', true],
    ['^shell$', 'run_shell_command', false],
    ['^shell$', 'shell', true],
    ['run_shell_command', 'run_shell_command', true],
    ['skill', 'use_skill', true],
    ['read|write', 'write_file', true],
    ['read|write', 'edit', false],
    ['Shell', 'run_shell_command', false], // case-sensitive
    ['.', 'x', true],
    ['.*', '', true],
    ['^$', '', true],
    // a non-empty matcher against a missing or non-string tool name
    ['.*', undefined, false],
    ['undefined', undefined, false],
    ['1', 1, false],
    // an invalid RegExp never matches
    ['(', '(', false],
    ['[', 'run_shell_command', false],
  ])('coshMatcherMatches(%j, %j) = %j', (matcher, toolName, expected) => {
    expect(coshMatcherMatches(matcher, toolName)).toBe(expected);
  });

  it('gives the same answer when a compiled matcher is reused', () => {
    for (let i = 0; i < 3; i++) {
      expect(coshMatcherMatches('sh', 'bash')).toBe(true);
      expect(coshMatcherMatches('sh', 'read')).toBe(false);
    }
  });

  it('reports RegExp syntax errors', () => {
    expect(coshMatcherError('^shell$')).toBeUndefined();
    expect(coshMatcherError('')).toBeUndefined();
    expect(coshMatcherError('a{2}')).toBeUndefined();
    expect(coshMatcherError('(')).toMatch(/^Invalid regular expression: \/\(\/: /);
    expect(coshMatcherError('[a')).toMatch(/Invalid regular expression/);
    expect(coshMatcherError('*shell')).toMatch(/Nothing to repeat/);
  });
});

describe('evaluateMatcher with the payload paths of the catalog (SPEC §10)', () => {
  const paths = (label: string, event: string) =>
    releaseCatalog(resolveCompozyRelease(label)).event(event)!.matcher_payload_fields;

  it('message_role reads role and message_delta_type delta_type: a real payload can match', () => {
    const p = paths('main-2026-10', 'message.start');
    expect(evaluateMatcher({ message_role: 'assistant' }, { role: 'assistant' }, p).matched).toBe(true);
    expect(evaluateMatcher({ message_role: 'assistant' }, { message_role: 'assistant' }, p).matched).toBe(false);
    expect(evaluateMatcher({ message_delta_type: 'text' }, { delta_type: 'text' }, p).matched).toBe(true);
  });

  it('sync_direction reads direction; sandbox.prepare reads its profile nested', () => {
    const sync = paths('pre-retire', 'sandbox.sync.before');
    expect(evaluateMatcher({ sync_direction: 'push' }, { direction: 'push' }, sync).matched).toBe(true);
    expect(evaluateMatcher({ sync_direction: 'push' }, { sync_direction: 'push' }, sync).matched).toBe(false);
    const prepare = paths('pre-retire', 'sandbox.prepare');
    const verdict = evaluateMatcher({ sandbox_profile: 'strict*' }, { profile: { profile: 'strict-net' } }, prepare);
    expect(verdict).toEqual({
      matched: true,
      fields: [{ field: 'sandbox_profile', pattern: 'strict*', value: 'strict-net', matched: true }],
    });
  });

  it('participation_channel reads the resolved participation, while it exists', () => {
    const p = paths('pre-retire', 'coordinator.spawned');
    const payload = { resolved_network_participation: { channel_id: 'ch_1' } };
    expect(evaluateMatcher({ participation_channel: 'ch_*' }, payload, p).matched).toBe(true);
  });
});
