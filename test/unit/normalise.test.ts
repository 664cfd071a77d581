import { describe, expect, it } from 'vitest';
import { normaliseCompozyHook, type RawHook } from '../../src/dialects/compozy/rules/declaration.js';
import { parseConfigToml } from '../../src/dialects/compozy/sources/config.js';
import type { Diagnostic } from '../../src/declarations/diagnostics.js';

function raw(value: unknown, over: Partial<RawHook> = {}): RawHook {
  return {
    source: 'config',
    file: '/cfg/config.toml',
    position: { line: 3 },
    path: [],
    locate: () => undefined,
    value,
    cwd: '/ws',
    ...over,
  };
}

const base = { name: 'h', event: 'tool.pre_call', command: '/bin/true' };

function run(value: unknown, over: Partial<RawHook> = {}) {
  return normaliseCompozyHook(raw(value, over));
}

function messages(diags: Diagnostic[], severity: 'error' | 'warning' = 'error'): string[] {
  return diags.filter((d) => d.severity === severity).map((d) => d.message);
}

function errorsOf(value: unknown, over: Partial<RawHook> = {}): string[] {
  return messages(run(value, over).diagnostics);
}

describe('normalise: defaults', () => {
  it('fills defaults and keeps the declaration', () => {
    const r = run({ ...base, args: ['-x'], env: { POLICY: 'p' }, metadata: { team: 'a' } });
    expect(r.diagnostics).toEqual([]);
    expect(r.declaration).toMatchObject({
      dialect: 'compozy',
      name: 'h',
      event: 'tool.pre_call',
      source: 'config',
      mode: 'async',
      required: false,
      priority: 500,
      timeout_ms: 0,
      enabled: true,
      executor_kind: 'subprocess',
      command: '/bin/true',
      args: ['-x'],
      env: { POLICY: 'p' },
      metadata: { team: 'a' },
      matcher: {},
      cwd: '/ws',
      status: 'active',
      location: { file: '/cfg/config.toml', line: 3 },
    });
  });

  it('uses the per-source default priority, and an explicit 0 counts as set', () => {
    expect(run(base).declaration?.priority).toBe(500);
    expect(run({ ...base, priority: 0 }).declaration?.priority).toBe(0);
    expect(run(base, { source: 'agent_definition', agentName: 'a' }).declaration?.priority).toBe(100);
    expect(
      run({ event: 'tool.pre_call', command: 'x' }, { source: 'skill', generatedName: 's' }).declaration?.priority,
    ).toBe(0);
    expect(run({ name: 'n', event: 'tool.pre_call' }, { source: 'native' }).declaration).toMatchObject({
      priority: 1000,
      executor_kind: 'native',
    });
  });

  it('trims the name and reads executor fields from the executor table', () => {
    const r = run({
      name: '  spaced  ',
      event: 'tool.pre_call',
      executor: { kind: 'subprocess', command: ' /bin/x ', args: ['a'] },
    });
    expect(r.declaration).toMatchObject({ name: 'spaced', command: '/bin/x', args: ['a'] });
  });

  it('lets kind sit beside top-level executor fields', () => {
    const r = run({ ...base, executor: { kind: 'subprocess' } });
    expect(r.diagnostics).toEqual([]);
    expect(r.declaration?.executor_kind).toBe('subprocess');
  });
});

describe('normalise: SPEC §2.1 error texts', () => {
  it('name is required', () => {
    expect(errorsOf({ event: 'tool.pre_call', command: 'x' })).toEqual(['hooks: hook name is required']);
    expect(errorsOf({ name: '   ', event: 'tool.pre_call', command: 'x' })).toEqual(['hooks: hook name is required']);
  });

  it('invalid event', () => {
    expect(errorsOf({ ...base, event: 'tool.nope' })).toEqual(['hooks: invalid hook event "tool.nope"']);
    expect(errorsOf({ name: 'h', command: 'x' })).toEqual(['hooks: invalid hook event ""']);
    // The removed-event text is SKILL.md's; elsewhere a legacy name is just unknown.
    expect(errorsOf({ ...base, event: 'on_session_created' })).toEqual([
      'hooks: invalid hook event "on_session_created"',
    ]);
  });

  it('invalid mode, and sync on an async-only event', () => {
    expect(errorsOf({ ...base, mode: 'fast' })).toEqual(['hooks: invalid hook mode "fast"']);
    expect(errorsOf({ ...base, event: 'session.message_persisted', mode: 'sync' })).toEqual([
      'hooks: hook "h" cannot use sync mode for async-only event "session.message_persisted"',
    ]);
    expect(run({ ...base, event: 'session.message_persisted', mode: 'async' }).declaration?.mode).toBe('async');
  });

  it('required only with sync', () => {
    expect(errorsOf({ ...base, required: true })).toEqual(['hooks: hook "h" cannot be required in async mode']);
    expect(run({ ...base, required: true, mode: 'sync' }).declaration?.required).toBe(true);
  });

  it('priority must fit int32', () => {
    expect(errorsOf({ ...base, priority: 2147483648 })).toEqual(['hooks: priority 2147483648 is outside int32 range']);
    expect(errorsOf({ ...base, priority: -2147483649 })).toEqual([
      'hooks: priority -2147483649 is outside int32 range',
    ]);
    expect(errorsOf({ ...base, priority: 99999999999999999999n })).toEqual([
      'hooks: priority 99999999999999999999 is outside int32 range',
    ]);
    expect(run({ ...base, priority: 2147483647 }).declaration?.priority).toBe(2147483647);
    expect(run({ ...base, priority: -2147483648 }).declaration?.priority).toBe(-2147483648);
    expect(errorsOf({ ...base, priority: 1.5 })).toEqual(['hooks: hook "h" priority must be an integer, got a number']);
  });

  it('timeout: Go durations, non-negative', () => {
    expect(run({ ...base, timeout: '1m30s' }).declaration?.timeout_ms).toBe(90_000);
    expect(run({ ...base, timeout: '250ms' }).declaration?.timeout_ms).toBe(250);
    expect(run({ ...base, timeout: '0' }).declaration?.timeout_ms).toBe(0);
    expect(errorsOf({ ...base, timeout: '-5s' })).toEqual(['hooks: hook "h" timeout must be non-negative']);
    const [bad] = errorsOf({ ...base, timeout: '5 seconds' });
    expect(bad).toContain('"5 seconds"');
    expect(bad).toContain('not a valid duration');
    const [num] = errorsOf({ ...base, timeout: 5 });
    expect(num).toContain('timeout 5 is not a duration');
  });

  it('env names: grammar and secret-like names', () => {
    expect(errorsOf({ ...base, env: { '1BAD': 'x' } })).toEqual([
      'hooks: hook "h" env.1BAD must be an environment variable name',
    ]);
    expect(errorsOf({ ...base, env: { GITHUB_TOKEN: 'x' } })).toEqual([
      'hooks: hook "h" env.GITHUB_TOKEN must move secret-like values to secret_env',
    ]);
    expect(errorsOf({ ...base, env: { my_api_key: 'x' } })).toEqual([
      'hooks: hook "h" env.my_api_key must move secret-like values to secret_env',
    ]);
    expect(run({ ...base, env: { TOKEN_FILE: '/t', SECRET_DIR: '/s', WEBHOOK_URL: 'https://x' } }).diagnostics).toEqual(
      [],
    );
  });

  it('secret_env references: env: and vault:hooks/ (vault warns)', () => {
    const ok = run({ ...base, secret_env: { API_TOKEN: 'env:MY_TOKEN' } });
    expect(ok.diagnostics).toEqual([]);
    expect(ok.declaration?.secret_env).toEqual({ API_TOKEN: 'env:MY_TOKEN' });
    const vault = run({ ...base, secret_env: { API_TOKEN: 'vault:hooks/github/token' } });
    expect(vault.declaration).toBeDefined();
    expect(vault.diagnostics.map((d) => [d.severity, d.code])).toEqual([['warning', 'vault_ref_unresolvable']]);
    const [bad] = errorsOf({ ...base, secret_env: { API_TOKEN: 'plaintext-value' } });
    expect(bad).toContain('hooks: hook "h" secret_env.API_TOKEN is invalid');
    expect(errorsOf({ ...base, secret_env: { X: 'vault:providers/x' } })).toHaveLength(1);
    expect(errorsOf({ ...base, secret_env: { X: 'env:1BAD' } })).toHaveLength(1);
  });

  it('executor fields at one place only', () => {
    expect(errorsOf({ ...base, executor: { command: '/bin/other' } })).toEqual([
      'hook executor fields must be declared either at the top level or under executor, not both',
    ]);
    expect(errorsOf({ name: 'h', event: 'tool.pre_call', args: ['a'], executor: { env: { A: 'b' } } })).toContain(
      'hook executor fields must be declared either at the top level or under executor, not both',
    );
  });

  it('executor kind: required, not implemented, invalid, native, subprocess without command', () => {
    expect(errorsOf({ name: 'h', event: 'tool.pre_call' })).toEqual(['hooks: hook "h" executor kind is required']);
    for (const kind of ['http', 'agent', 'wasm']) {
      expect(errorsOf({ name: 'h', event: 'tool.pre_call', executor: { kind } })).toEqual([
        'hooks: executor not implemented',
      ]);
    }
    expect(errorsOf({ name: 'h', event: 'tool.pre_call', executor: { kind: 'bogus' } })).toEqual([
      'hooks: invalid hook executor kind "bogus"',
    ]);
    expect(errorsOf({ name: 'h', event: 'tool.pre_call', executor: { kind: 'native' } })).toEqual([
      'hooks: hook "h" only native sources may use native executors',
    ]);
    expect(errorsOf({ name: 'h', event: 'tool.pre_call', executor: { kind: 'subprocess' } })).toEqual([
      'hooks: hook "h" subprocess executor requires a command',
    ]);
    expect(
      run({ name: 'h', event: 'tool.pre_call', executor: { kind: 'native' } }, { source: 'native' }).declaration
        ?.executor_kind,
    ).toBe('native');
  });

  it('unknown keys are errors, source and skill_source included', () => {
    const r = run({
      ...base,
      source: 'config',
      skill_source: 'user',
      workdir: '/x',
      executor: { kind: 'subprocess', shell: true },
    });
    expect(r.declaration).toBeUndefined();
    expect(r.diagnostics.map((d) => d.code)).toEqual([
      'unknown_field',
      'unknown_field',
      'unknown_field',
      'unknown_field',
    ]);
    expect(r.diagnostics.map((d) => d.message).join('\n')).toMatch(
      /"source".*\n.*"skill_source".*\n.*"workdir".*\n.*"executor.shell"/,
    );
  });

  it('wrong types are diagnostics, never throws', () => {
    for (const value of [null, 'text', 42, [1, 2], true]) {
      expect(run(value).diagnostics.map((d) => d.code)).toEqual(['declaration_not_a_table']);
    }
    const r = run({
      name: 7,
      event: ['x'],
      mode: 1,
      args: 'a b',
      env: ['X'],
      metadata: { a: 1 },
      matcher: 'x',
      enabled: 'yes',
      required: 'no',
    });
    expect(r.declaration).toBeUndefined();
    expect(r.diagnostics.length).toBeGreaterThanOrEqual(8);
    expect(r.diagnostics.every((d) => d.severity === 'error')).toBe(true);
  });

  it('keeps going: every problem of a declaration is reported', () => {
    const r = run({
      name: 'h',
      event: 'tool.pre_call',
      mode: 'sync',
      required: true,
      timeout: '-1s',
      priority: 5e10,
      env: { PASSWORD: 'x' },
    });
    expect(r.diagnostics.map((d) => d.code).sort()).toEqual([
      'executor_kind_required',
      'negative_timeout',
      'priority_out_of_range',
      'secret_env_name',
    ]);
  });

  it('null counts as not written', () => {
    const r = run({ ...base, mode: null, timeout: null, priority: null, matcher: { tool_id: null } });
    expect(r.diagnostics).toEqual([]);
    expect(r.declaration).toMatchObject({ mode: 'async', timeout_ms: 0, priority: 500, matcher: {} });
  });
});

describe('normalise: enabled and metadata', () => {
  it('enabled = false is disabled but still fully validated', () => {
    expect(run({ ...base, enabled: false }).declaration).toMatchObject({
      status: 'disabled',
      enabled: false,
      why: 'enabled = false',
    });
    const bad = run({ ...base, enabled: false, event: 'nope' });
    expect(bad.declaration).toBeUndefined();
    expect(messages(bad.diagnostics)).toEqual(['hooks: invalid hook event "nope"']);
  });

  it('metadata is a string map', () => {
    expect(errorsOf({ ...base, metadata: { owner: 3 } })).toEqual([
      'hooks: hook "h" metadata.owner must be a string, got an integer',
    ]);
  });

  it('a loader status wins over enabled', () => {
    const r = run({ ...base, enabled: false }, { status: { status: 'overridden', why: 'replaced' } });
    expect(r.declaration).toMatchObject({ status: 'overridden', why: 'replaced' });
  });
});

describe('normalise: matchers (SPEC §2.2)', () => {
  it('family check, sorted and comma-separated; agent_type and tool_namespace always fail', () => {
    expect(errorsOf({ ...base, matcher: { tool_name: 'shell' } })).toEqual([
      'hooks: matcher fields [tool_name] are not valid for event "tool.pre_call"',
    ]);
    expect(
      errorsOf({ ...base, matcher: { tool_namespace: 'x', agent_type: 'y', tool_name: 'z', tool_id: 'ok' } }),
    ).toEqual([
      'hooks: matcher fields [agent_type, tool_name, tool_namespace] are not valid for event "tool.pre_call"',
    ]);
    expect(errorsOf({ ...base, event: 'permission.request', matcher: { agent_type: 'x' } })).toEqual([
      'hooks: matcher fields [agent_type] are not valid for event "permission.request"',
    ]);
  });

  it('a blank value sets nothing, so it passes the family check', () => {
    expect(run({ ...base, matcher: { tool_name: '  ' } }).declaration?.matcher).toEqual({});
  });

  it('patterns are validated like Go path.Match', () => {
    expect(errorsOf({ ...base, matcher: { tool_id: '[' } })).toEqual([
      'hooks: matcher.tool_id pattern "[" is invalid: syntax error in pattern',
    ]);
    expect(errorsOf({ ...base, matcher: { tool_id: 'abc\\' } })).toEqual([
      'hooks: matcher.tool_id pattern "abc\\\\" is invalid: syntax error in pattern',
    ]);
    expect(run({ ...base, matcher: { tool_id: 'compozy__*', workspace_id: ' ws_1 ' } }).declaration?.matcher).toEqual({
      tool_id: 'compozy__*',
      workspace_id: 'ws_1',
    });
  });

  it('tool_read_only must be a boolean', () => {
    expect(run({ ...base, matcher: { tool_read_only: false } }).declaration?.matcher).toEqual({
      tool_read_only: false,
    });
    expect(errorsOf({ ...base, matcher: { tool_read_only: 'false' } })).toEqual([
      'hooks: hook "h" matcher.tool_read_only must be a boolean, got a string',
    ]);
    expect(errorsOf({ ...base, matcher: { tool_id: 5 } })).toEqual([
      'hooks: hook "h" matcher.tool_id must be a string, got an integer',
    ]);
  });

  it('autonomy fields nested under matcher.autonomy, errors by leaf name', () => {
    const ok = run({
      ...base,
      event: 'task.run.pre_claim',
      matcher: { workspace_id: 'ws', autonomy: { workflow_id: 'release-*' } },
    });
    expect(ok.diagnostics).toEqual([]);
    expect(ok.declaration?.matcher).toEqual({ workspace_id: 'ws', workflow_id: 'release-*' });
    expect(errorsOf({ ...base, matcher: { autonomy: { workflow_id: 'x' } } })).toEqual([
      'hooks: matcher fields [workflow_id] are not valid for event "tool.pre_call"',
    ]);
    expect(errorsOf({ ...base, event: 'task.run.pre_claim', matcher: { autonomy: { task_id: '[' } } })).toEqual([
      'hooks: matcher.task_id pattern "[" is invalid: syntax error in pattern',
    ]);
    expect(
      errorsOf({ ...base, event: 'task.run.pre_claim', matcher: { autonomy: { tool_id: 'x', bogus: 'y' } } }),
    ).toEqual(['hooks: matcher.autonomy fields [bogus, tool_id] are not autonomy correlation fields']);
  });

  it('flat autonomy fields: a warning in config and AGENT.md, an error in extensions and SKILL.md', () => {
    const value = { ...base, event: 'task.run.pre_claim', matcher: { task_id: 't-*' } };
    const cfg = run(value);
    expect(cfg.declaration?.matcher).toEqual({ task_id: 't-*' });
    expect(cfg.diagnostics.map((d) => [d.severity, d.code])).toEqual([['warning', 'flat_autonomy_field']]);
    const agent = run(value, { source: 'agent_definition', agentName: 'a' });
    expect(agent.declaration?.matcher).toEqual({ task_id: 't-*', agent_name: 'a' });
    const ext = run(value, { source: 'extension', extension: { name: 'e', root: '/e', env: {} } });
    expect(ext.declaration).toBeUndefined();
    expect(messages(ext.diagnostics)).toEqual([
      'hooks: hook "h" matcher.task_id must be declared under matcher.autonomy',
    ]);
    const skill = run(
      { event: 'task.run.pre_claim', command: 'x', matcher: { task_id: 't' } },
      { source: 'skill', generatedName: 's' },
    );
    expect(skill.declaration).toBeUndefined();
  });

  it('compaction_trigger only on the context events', () => {
    expect(
      run({ ...base, event: 'context.pre_compact', matcher: { compaction_trigger: 'requested' } }).declaration?.matcher,
    ).toEqual({
      compaction_trigger: 'requested',
    });
    expect(
      run({ ...base, event: 'context.post_compact', matcher: { compaction_trigger: 'anything' } }).diagnostics,
    ).toEqual([]);
    expect(errorsOf({ ...base, matcher: { compaction_trigger: 'agent' } })).toEqual([
      'hooks: matcher fields [compaction_trigger] are not valid for event "tool.pre_call"',
    ]);
  });

  it('retired compaction keys: config and extensions warn "retired matcher key" and drop them', () => {
    const value = {
      ...base,
      event: 'context.pre_compact',
      matcher: { compaction_reason: 'x', compaction_strategy: 'y', worktree_id: 'w' },
    };
    for (const over of [{}, { source: 'extension' as const, extension: { name: 'e', root: '/e', env: {} } }]) {
      const r = run(value, over);
      expect(r.declaration?.matcher).toEqual({ worktree_id: 'w' });
      const warnings = messages(r.diagnostics, 'warning');
      expect(warnings).toHaveLength(2);
      expect(warnings.every((m) => m.includes('retired matcher key'))).toBe(true);
      expect(r.diagnostics.every((d) => d.code === 'retired_matcher_key')).toBe(true);
    }
  });

  it('retired compaction keys: AGENT.md and SKILL.md go through the v0.6.0 shim', () => {
    const skill = run(
      { event: 'context.pre_compact', command: 'x', matcher: { compaction_reason: 'x' } },
      { source: 'skill', generatedName: 's' },
    );
    expect(skill.declaration?.matcher).toEqual({});
    const [warning] = messages(skill.diagnostics, 'warning');
    expect(warning).toContain('v0.6.0');
    expect(warning).toContain('compaction_trigger');
    expect(skill.diagnostics[0]!.code).toBe('retired_matcher_key_shim');
  });

  it('the rest of the matcher is still validated next to retired keys', () => {
    expect(
      errorsOf({ ...base, event: 'context.pre_compact', matcher: { compaction_reason: 'x', bogus: 'y' } }),
    ).toEqual(['hooks: matcher fields [bogus] are not valid for event "context.pre_compact"']);
  });
});

describe('normalise: AGENT.md scoping', () => {
  const agent = { source: 'agent_definition' as const, agentName: 'reviewer', messagePrefix: 'agent.hooks[0]: ' };

  it('forces matcher.agent_name', () => {
    const r = run({ ...base, event: 'prompt.post_assemble', matcher: { input_class: 'user' } }, agent);
    expect(r.declaration?.matcher).toEqual({ input_class: 'user', agent_name: 'reviewer' });
    expect(
      run({ ...base, event: 'prompt.post_assemble', matcher: { agent_name: 'reviewer' } }, agent).diagnostics,
    ).toEqual([]);
  });

  it('another explicit agent_name is an error, prefixed', () => {
    expect(errorsOf({ ...base, event: 'prompt.post_assemble', matcher: { agent_name: 'other' } }, agent)).toEqual([
      'agent.hooks[0]: matcher.agent_name must match agent name "reviewer"',
    ]);
  });

  it('context events fail because the forced agent_name is not in their family', () => {
    expect(errorsOf({ ...base, event: 'context.pre_compact' }, agent)).toEqual([
      'agent.hooks[0]: hooks: matcher fields [agent_name] are not valid for event "context.pre_compact"',
    ]);
  });
});

describe('normalise: SKILL.md entries', () => {
  const skill = { source: 'skill' as const, skillSource: 'user' as const, generatedName: 'my-skill#2' };

  it('named by the loader, async subprocess by default', () => {
    const r = run({ event: 'session.post_create', command: '/bin/sh', args: ['-c', 'true'], timeout: '5s' }, skill);
    expect(r.declaration).toMatchObject({
      name: 'my-skill#2',
      source: 'skill',
      skill_source: 'user',
      mode: 'async',
      timeout_ms: 5000,
    });
  });

  it('command is required', () => {
    expect(errorsOf({ event: 'session.post_create', args: ['x'] }, skill)).toEqual(['command is required']);
  });

  it('no name, required, enabled, metadata or executor', () => {
    const r = run(
      {
        event: 'session.post_create',
        command: 'x',
        name: 'n',
        required: true,
        enabled: true,
        metadata: {},
        executor: {},
      },
      skill,
    );
    expect(r.diagnostics.map((d) => d.code)).toEqual(Array(5).fill('unknown_field'));
  });

  it('removed legacy events', () => {
    expect(errorsOf({ event: 'on_session_created', command: 'x' }, skill)).toEqual([
      'hook event "on_session_created" was removed; use "session.post_create"',
    ]);
    expect(errorsOf({ event: 'on_session_stopped', command: 'x' }, skill)).toEqual([
      'hook event "on_session_stopped" was removed; use "session.post_stop"',
    ]);
  });
});

describe('normalise: extension templates', () => {
  const ext = (env: NodeJS.ProcessEnv = {}) => ({
    source: 'extension' as const,
    cwd: '/ext/root',
    extension: { name: 'pe', root: '/ext/root', env },
  });

  it('expands {{config_dir}} and {{env:NAME}} in command, args and env values; metadata names the extension', () => {
    const r = run(
      {
        name: 'h',
        event: 'tool.pre_call',
        command: '{{config_dir}}/bin/x',
        args: ['--home={{env:HOME_DIR}}', '{{env:MISSING}}'],
        env: { ROOT: '{{config_dir}}' },
      },
      ext({ HOME_DIR: '/home/u' }),
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.declaration).toMatchObject({
      command: '/ext/root/bin/x',
      args: ['--home=/home/u', ''],
      env: { ROOT: '/ext/root' },
      metadata: { extension: 'pe' },
      extension: 'pe',
      cwd: '/ext/root',
      priority: 300,
    });
    expect(r.command).toEqual({ written: '{{config_dir}}/bin/x', at: ['command'] });
  });

  it('a secret-like template name must use secret_env', () => {
    expect(errorsOf({ name: 'h', event: 'tool.pre_call', command: 'x', args: ['{{env:API_TOKEN}}'] }, ext())).toEqual([
      'env template "API_TOKEN" must use secret_env',
    ]);
  });

  it('an unterminated template is invalid', () => {
    expect(errorsOf({ name: 'h', event: 'tool.pre_call', command: 'x', env: { A: 'pre-{{env:FOO' } }, ext())).toEqual([
      'invalid env template "pre-{{env:FOO"',
    ]);
  });

  it('no enabled or metadata keys in an extension', () => {
    expect(run({ ...base, enabled: true, metadata: {} }, ext()).diagnostics.map((d) => d.code)).toEqual([
      'unknown_field',
      'unknown_field',
    ]);
  });
});

describe('normalise: diagnostic positions', () => {
  const toml = `[[hooks.declarations]]
name = "first"
event = "tool.pre_call"
command = "x"

[[hooks.declarations]]
name = "second"
event = "tool.pre_call"
command = "x"
mode = "sync"
timeout = "-5s"

[hooks.declarations.matcher]
tool_id = "["
tool_name = "x"

[hooks.declarations.executor]
kind = "http"
`;

  it('points at the offending key, with file, source and hook', () => {
    const cfg = parseConfigToml(toml, '/ws/.compozy/config.toml', '/ws');
    expect(cfg.raws.map((r) => r.position.line)).toEqual([1, 6]);
    const r = normaliseCompozyHook(cfg.raws[1]!);
    const byCode = Object.fromEntries(r.diagnostics.map((d) => [d.code, d]));
    expect(byCode.negative_timeout).toMatchObject({
      line: 11,
      column: 1,
      file: '/ws/.compozy/config.toml',
      source: 'config',
      hook: 'second',
    });
    expect(byCode.matcher_field_not_allowed?.line).toBe(15);
    expect(byCode.executor_not_implemented?.line).toBe(18);
    expect(r.diagnostics.map((d) => d.code).sort()).toEqual(
      ['executor_not_implemented', 'matcher_field_not_allowed', 'negative_timeout', 'invalid_matcher_pattern'].sort(),
    );
    expect(byCode.invalid_matcher_pattern?.line).toBe(14);
  });

  it('falls back to the declaration line when the key is not written', () => {
    const cfg = parseConfigToml(
      '\n\n[[hooks.declarations]]\nevent = "tool.pre_call"\ncommand = "x"\n',
      '/c.toml',
      '/ws',
    );
    const r = normaliseCompozyHook(cfg.raws[0]!);
    expect(r.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'name_required',
        message: 'hooks: hook name is required',
        file: '/c.toml',
        line: 3,
        column: 1,
        source: 'config',
      },
    ]);
  });
});
