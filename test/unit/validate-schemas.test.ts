import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { eventsOfAnyRelease, matcherFieldsOfAnyRelease } from '../../src/dialects/compozy/releases.js';
import { AUTONOMY_FIELDS } from '../../src/dialects/compozy/events.js';
import { RESOURCE_KEYS } from '../../src/dialects/compozy/sources/extension.js';
import { coshEvents } from '../../src/dialects/cosh/events.js';
import { COMPOZY_SCHEMA_LAYOUTS } from '../../src/dialects/compozy/schema-layout.js';
import { COSH_SCHEMA_LAYOUTS } from '../../src/dialects/cosh/schema-layout.js';
import {
  pathText as pathTextOf,
  pointerToPath,
  schemaDiagnostics as diagnosticsOf,
  schemaSeverity as severityOf,
  type Locate,
  type SchemaKind,
} from '../../src/validate/schema-check.js';
import { validators } from '../../src/validate/validators.generated.js';

const root = join(import.meta.dirname, '..', '..');

// Each kind with the layout its dialect gives it (as `hooks validate` passes it).
const LAYOUTS = { ...COMPOZY_SCHEMA_LAYOUTS, ...COSH_SCHEMA_LAYOUTS };
const schemaDiagnostics = (kind: SchemaKind, document: unknown, locate: Locate, file: string) =>
  diagnosticsOf(kind, document, locate, file, LAYOUTS[kind]);
const schemaSeverity = (kind: SchemaKind, error: Parameters<typeof severityOf>[1]) =>
  severityOf(LAYOUTS[kind] ?? {}, error);
const pathText = (kind: SchemaKind, path: Parameters<typeof pathTextOf>[1]) => pathTextOf(LAYOUTS[kind] ?? {}, path);
const FILE = '/ws/.compozy/config.toml';

const KINDS: SchemaKind[] = [
  'compozy-config',
  'compozy-extension',
  'compozy-agent',
  'compozy-skill',
  'cosh-config',
  'cosh-extension',
  'hooktest',
];

function schemaFile(kind: SchemaKind): Record<string, unknown> {
  return JSON.parse(readFileSync(join(root, 'schemas', `${kind}.schema.json`), 'utf8')) as Record<string, unknown>;
}

/** A locate that knows the lines listed, keyed by the path written as `a.b[0].c`. */
function fakeLocate(lines: Record<string, number>): Locate {
  return (path) => {
    const key = path
      .map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`))
      .join('')
      .replace(/^\./, '');
    return lines[key];
  };
}
const noLines: Locate = () => undefined;

function declaration(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'gate', event: 'tool.pre_call', mode: 'sync', command: '/bin/true', ...extra };
}

function configWith(...declarations: Record<string, unknown>[]): Record<string, unknown> {
  return { hooks: { declarations } };
}

// ---------------------------------------------------------------------------------------------

describe('compozy-config schema', () => {
  it('accepts the seed examples and leaves other tables to the runtime', () => {
    const doc = {
      daemon: { listen: '127.0.0.1:9000', nested: { anything: [1, 2] } },
      hooks: {
        declarations: [
          {
            name: 'block-secret-file-edits',
            event: 'tool.pre_call',
            mode: 'sync',
            required: true,
            priority: 700,
            timeout: '3s',
            matcher: { tool_id: '*', tool_read_only: false },
            executor: {
              kind: 'subprocess',
              command: '/usr/bin/env',
              args: ['bash', './hooks/block-secret-file-edits.sh'],
              env: { POLICY: 'secret-files' },
            },
          },
          {
            name: 'block-low-priority-claim',
            event: 'task.run.pre_claim',
            mode: 'sync',
            required: true,
            command: './hooks/claim-policy',
            enabled: false,
            metadata: { team: 'platform' },
            secret_env: { API_TOKEN: 'env:API_TOKEN', DB_PASSWORD: 'vault:hooks/db/password' },
            matcher: { workspace_id: 'ws_checkout', autonomy: { workflow_id: 'release-*' } },
          },
          { name: 'timeouts', event: 'session.post_create', timeout: '1m30s', priority: -2147483648 },
          { name: 'zero', event: 'session.post_create', timeout: '0', priority: 2147483647 },
        ],
      },
      skills: { allowed_marketplace_hooks: ['registry:slug', 'abc123'] },
    };
    expect(schemaDiagnostics('compozy-config', doc, noLines, FILE)).toEqual([]);
  });

  it('names the path and the line of a bad mode', () => {
    const doc = configWith(declaration({ mode: 'sometimes' }));
    const locate = fakeLocate({ 'hooks.declarations[0]': 3, 'hooks.declarations[0].mode': 6 });
    expect(schemaDiagnostics('compozy-config', doc, locate, FILE)).toEqual([
      {
        severity: 'error',
        code: 'schema_enum',
        message: 'hooks.declarations[0].mode: must be equal to one of the allowed values (sync, async)',
        file: FILE,
        line: 6,
        source: 'config',
        hook: 'gate',
      },
    ]);
  });

  it('reports an unknown key in a declaration at the key, source and skill_source included', () => {
    const doc = configWith(declaration(), declaration({ name: 'second', source: 'config', skill_source: 'user' }));
    const locate = fakeLocate({
      'hooks.declarations[1]': 10,
      'hooks.declarations[1].source': 14,
      'hooks.declarations[1].skill_source': 15,
    });
    const ds = schemaDiagnostics('compozy-config', doc, locate, FILE);
    expect(ds.map((d) => [d.code, d.message, d.line, d.hook])).toEqual([
      ['schema_additional_properties', 'hooks.declarations[1]: unknown key "source"', 14, 'second'],
      ['schema_additional_properties', 'hooks.declarations[1]: unknown key "skill_source"', 15, 'second'],
    ]);
  });

  it('reports every problem of a declaration, not only the first', () => {
    const doc = configWith(
      declaration({
        priority: '700',
        timeout: '5 seconds',
        required: 'yes',
        args: ['ok', 3],
        matcher: { tool_id: 7, agent_type: 'x', autonomy: { task_id: 't', nope: 'x' } },
      }),
    );
    const ds = schemaDiagnostics('compozy-config', doc, noLines, FILE);
    expect(ds.map((d) => d.message).sort()).toEqual(
      [
        'hooks.declarations[0].priority: must be integer, got string',
        'hooks.declarations[0].timeout: must be a non-negative Go duration such as "250ms", "5s" or "1m30s", got "5 seconds"',
        'hooks.declarations[0].required: must be boolean, got string',
        'hooks.declarations[0].args[1]: must be string, got integer',
        'hooks.declarations[0].matcher.tool_id: must be string, got integer',
        'hooks.declarations[0].matcher: unknown key "agent_type"',
        'hooks.declarations[0].matcher.autonomy: unknown key "nope"',
      ].sort(),
    );
    expect(ds.every((d) => d.severity === 'error' && d.line === 1)).toBe(true);
  });

  it('reports a type error alone, not also the enum it cannot satisfy', () => {
    const ds = schemaDiagnostics('compozy-config', configWith(declaration({ event: 5 })), noLines, FILE);
    expect(ds.map((d) => [d.code, d.message])).toEqual([
      ['schema_type', 'hooks.declarations[0].event: must be string, got integer'],
    ]);
  });

  it('does not list the whole event catalog for an unknown event', () => {
    const ds = schemaDiagnostics('compozy-config', configWith(declaration({ event: 'foo.bar' })), noLines, FILE);
    expect(ds.map((d) => d.message)).toEqual([
      `hooks.declarations[0].event: must be equal to one of the ${eventsOfAnyRelease().length} allowed values, got "foo.bar"`,
    ]);
  });

  it('checks int32 bounds, env names, secret refs and executor kinds', () => {
    const doc = configWith(
      declaration({
        priority: 2147483648,
        env: { 'BAD-NAME': 'x', GOOD_NAME: 'y' },
        secret_env: { TOKEN: 'plain-value' },
        executor: { kind: 'docker' },
      }),
    );
    const locate = fakeLocate({ 'hooks.declarations[0].env.BAD-NAME': 9 });
    const ds = schemaDiagnostics('compozy-config', doc, locate, FILE);
    expect(ds.map((d) => [d.code, d.message, d.line])).toEqual([
      ['schema_maximum', 'hooks.declarations[0].priority: must be <= 2147483647, got 2147483648', 1],
      [
        'schema_property_names',
        'hooks.declarations[0].env: invalid key "BAD-NAME": must be an environment variable name (letters, digits and _, not starting with a digit)',
        9,
      ],
      [
        'schema_pattern',
        'hooks.declarations[0].secret_env.TOKEN: must be a secret reference "env:NAME" or "vault:hooks/...", got "plain-value"',
        1,
      ],
      [
        'schema_enum',
        'hooks.declarations[0].executor.kind: must be equal to one of the allowed values (, subprocess, native, http, agent, wasm)',
        1,
      ],
    ]);
  });

  it('rejects negative Go durations and accepts every Go unit', () => {
    for (const good of ['250ms', '5s', '1m30s', '1h', '1.5s', '.5s', '10us', '10µs', '3ns', '0']) {
      expect(schemaDiagnostics('compozy-config', configWith(declaration({ timeout: good })), noLines, FILE)).toEqual(
        [],
      );
    }
    for (const bad of ['-5s', '5', 's', '5 s', '', '5sec', '1d']) {
      const ds = schemaDiagnostics('compozy-config', configWith(declaration({ timeout: bad })), noLines, FILE);
      expect(ds.map((d) => d.code)).toEqual(['schema_pattern']);
    }
  });

  it('points a missing required key at its declaration', () => {
    const doc = configWith({ event: 'session.post_create', command: 'x' });
    const ds = schemaDiagnostics('compozy-config', doc, fakeLocate({ 'hooks.declarations[0]': 4 }), FILE);
    expect(ds).toEqual([
      {
        severity: 'error',
        code: 'schema_required',
        message: 'hooks.declarations[0]: missing required key "name"',
        file: FILE,
        line: 4,
        source: 'config',
      },
    ]);
  });

  it('falls back to the nearest located ancestor, then to line 1', () => {
    const doc = configWith(declaration({ matcher: { autonomy: { task_id: 1 } } }));
    const located = schemaDiagnostics('compozy-config', doc, fakeLocate({ 'hooks.declarations[0].matcher': 7 }), FILE);
    expect(located.map((d) => d.line)).toEqual([7]);
    expect(schemaDiagnostics('compozy-config', doc, noLines, FILE).map((d) => d.line)).toEqual([1]);
  });

  it('takes a position with a column from the locator', () => {
    const doc = configWith(declaration({ mode: 'x' }));
    const ds = schemaDiagnostics('compozy-config', doc, () => ({ line: 5, column: 8 }), FILE);
    expect(ds.map((d) => [d.line, d.column])).toEqual([[5, 8]]);
  });

  it('accepts flat autonomy fields and retired matcher keys (the rules warn about them)', () => {
    const doc = configWith(
      declaration({
        event: 'context.pre_compact',
        matcher: { task_id: 'x', compaction_reason: 'r', compaction_strategy: 'summary', compaction_trigger: 'agent' },
      }),
    );
    expect(schemaDiagnostics('compozy-config', doc, noLines, FILE)).toEqual([]);
  });

  it('says "document" for a problem at the root', () => {
    const ds = schemaDiagnostics('compozy-config', [], noLines, FILE);
    expect(ds.map((d) => d.message)).toEqual(['document: must be object, got array']);
  });
});

describe('compozy-extension schema', () => {
  const manifest = (hook: Record<string, unknown>): Record<string, unknown> => ({
    extension: { name: 'prompt-enhancer', version: '0.1.0', min_compozy_version: '0.3.0-beta.1' },
    capabilities: { provides: [] },
    permissions: { requires: ['sessions/list'] },
    subprocess: { command: 'node', args: ['dist/index.js', 'serve'] },
    resources: { hooks: [hook], skills: ['skills'] },
  });

  it('accepts the prompt-enhancer manifest', () => {
    const doc = manifest({
      name: 'workspace-context',
      event: 'prompt.post_assemble',
      mode: 'sync',
      executor: { kind: 'subprocess', command: 'node', args: ['dist/index.js', 'hook', 'prompt_post_assemble'] },
      matcher: { input_class: 'user' },
    });
    expect(schemaDiagnostics('compozy-extension', doc, noLines, '/x/extension.toml')).toEqual([]);
  });

  it('rejects enabled, metadata and flat autonomy fields in [[resources.hooks]]', () => {
    const doc = manifest({
      name: 'h',
      event: 'task.run.pre_claim',
      command: './bin/h',
      enabled: true,
      metadata: { a: 'b' },
      matcher: { task_id: 't' },
    });
    const ds = schemaDiagnostics('compozy-extension', doc, noLines, '/x/extension.toml');
    expect(ds.map((d) => [d.message, d.source, d.hook])).toEqual([
      ['resources.hooks[0]: unknown key "enabled"', 'extension', 'h'],
      ['resources.hooks[0]: unknown key "metadata"', 'extension', 'h'],
      ['resources.hooks[0].matcher: unknown key "task_id"', 'extension', 'h'],
    ]);
  });

  it('requires [extension] with a name', () => {
    expect(schemaDiagnostics('compozy-extension', {}, noLines, '/x/extension.json').map((d) => d.message)).toEqual([
      'document: missing required key "extension"',
    ]);
    const ds = schemaDiagnostics(
      'compozy-extension',
      { extension: { version: '1.0.0' } },
      noLines,
      '/x/extension.json',
    );
    expect(ds.map((d) => d.message)).toEqual(['extension: missing required key "name"']);
  });

  it('[extension] versions are semantic versions; [resources] is closed as CompozyOS closes it', () => {
    const doc = {
      extension: { name: 'e', version: 'latest', min_compozy_version: '0.3.0-beta.1' },
      resources: { widgets: [] },
    };
    const ds = schemaDiagnostics('compozy-extension', doc, noLines, '/x/extension.json');
    expect(ds.map((d) => d.message)).toEqual([
      expect.stringMatching(/^extension\.version: /),
      'resources: unknown key "widgets"',
    ]);
  });
});

describe('compozy-agent schema', () => {
  it('accepts the seed agent and host-runtime keys', () => {
    const doc = {
      name: 'reviewer',
      provider: 'codex',
      permissions: 'approve-all',
      category_path: ['CompozyOS'],
      hooks: [
        {
          name: 'add-review-context',
          event: 'prompt.post_assemble',
          mode: 'sync',
          timeout: '5s',
          command: '/usr/bin/env',
          args: ['node', './hooks/add-review-context.mjs'],
          matcher: { input_class: 'user' },
          enabled: true,
        },
      ],
    };
    expect(schemaDiagnostics('compozy-agent', doc, noLines, '/a/AGENT.md')).toEqual([]);
  });

  it('names hooks by their list index and says "front matter" at the root', () => {
    const doc = { hooks: [{ name: 'x', event: 'turn.start', mode: 'eventually' }] };
    const ds = schemaDiagnostics('compozy-agent', doc, fakeLocate({ 'hooks[0].mode': 6 }), '/a/AGENT.md');
    expect(ds.map((d) => [d.message, d.line, d.source])).toEqual([
      ['front matter: missing required key "name"', 1, 'agent_definition'],
      ['hooks[0].mode: must be equal to one of the allowed values (sync, async)', 6, 'agent_definition'],
    ]);
  });
});

describe('compozy-skill schema', () => {
  it('accepts the hooks-only skill and other metadata.compozy keys', () => {
    const doc = {
      name: 'hooks-only',
      description: 'Skill with hook metadata only',
      metadata: {
        compozy: {
          version: 1,
          mcp_servers: [{ name: 'git', command: 'uvx' }],
          hooks: [
            {
              event: 'session.post_create',
              command: '/bin/sh',
              args: ['-c', 'echo ready'],
              timeout: '5s',
              env: { HOOK_ENV: 'enabled' },
              matcher: { agent_name: 'x', autonomy: { run_id: 'r' }, compaction_strategy: 'old' },
            },
          ],
        },
      },
    };
    expect(schemaDiagnostics('compozy-skill', doc, noLines, '/s/SKILL.md')).toEqual([]);
  });

  it('rejects config-only fields, requires event and command, and names hooks <skill>#<n>', () => {
    const doc = {
      name: 'pair',
      metadata: {
        compozy: {
          hooks: [
            { event: 'session.post_create', command: 'a', name: 'mine', required: true },
            { event: 'session.post_stop' },
          ],
        },
      },
    };
    const locate = fakeLocate({ 'metadata.compozy.hooks[0].name': 8, 'metadata.compozy.hooks[1]': 12 });
    const ds = schemaDiagnostics('compozy-skill', doc, locate, '/s/SKILL.md');
    expect(ds.map((d) => [d.message, d.line, d.hook])).toEqual([
      ['metadata.compozy.hooks[0]: unknown key "name"', 8, 'pair#1'],
      ['metadata.compozy.hooks[0]: unknown key "required"', 1, 'pair#1'],
      ['metadata.compozy.hooks[1]: missing required key "command"', 12, 'pair#2'],
    ]);
  });

  it('names a single skill hook after the skill', () => {
    const doc = { name: 'solo', metadata: { compozy: { hooks: [{ event: 'foo.bar', command: 'x' }] } } };
    const ds = schemaDiagnostics('compozy-skill', doc, noLines, '/s/SKILL.md');
    expect(ds.map((d) => [d.code, d.hook])).toEqual([['schema_enum', 'solo']]);
  });

  it('reports a metadata.compozy that is not a map', () => {
    const doc = { name: 'malformed', metadata: { compozy: 'definitely-not-a-map' } };
    const ds = schemaDiagnostics('compozy-skill', doc, fakeLocate({ 'metadata.compozy': 4 }), '/s/SKILL.md');
    expect(ds.map((d) => [d.code, d.message, d.line])).toEqual([
      ['schema_type', 'metadata.compozy: must be object, got string', 4],
    ]);
  });
});

describe('cosh-config schema', () => {
  it('accepts the seed config with unknown keys left to the loader', () => {
    const doc = {
      model: { name: 'x' },
      hooks: {
        enabled: true,
        PreToolUse: [
          {
            name: 'security-check',
            command: '/usr/local/bin/my-security-hook',
            timeout: 5000,
            matcher: '^shell$',
            env: { POLICY: 'strict' },
            future_key: true,
          },
        ],
        SessionStart: [{ name: 'context-loader', command: '/usr/local/bin/load-context', timeout: 3000 }],
      },
    };
    expect(schemaDiagnostics('cosh-config', doc, noLines, '/h/config.toml')).toEqual([]);
  });

  it('makes an unknown event and a wrong type errors', () => {
    const doc = { hooks: { enabled: 'yes', PreToolUsee: [], Stop: [{ name: 's', command: 'x', timeout: '5000' }] } };
    const locate = fakeLocate({ 'hooks.PreToolUsee': 3, 'hooks.Stop[0].timeout': 9 });
    const ds = schemaDiagnostics('cosh-config', doc, locate, '/h/config.toml');
    expect(ds.map((d) => [d.severity, d.code, d.message, d.line, d.source, d.hook])).toEqual([
      ['error', 'schema_additional_properties', 'hooks: unknown event "PreToolUsee"', 3, 'cosh_config', undefined],
      ['error', 'schema_type', 'hooks.enabled: must be boolean, got string', 1, 'cosh_config', undefined],
      ['error', 'schema_type', 'hooks.Stop[0].timeout: must be integer, got string', 9, 'cosh_config', 's'],
    ]);
  });
});

describe('cosh-extension schema', () => {
  it('accepts the tokenless manifest shape', () => {
    const doc = {
      name: 'tokenless',
      version: '0.4.0',
      contextFileName: 'COPILOT.md',
      hooks: {
        PreToolUse: [
          {
            matcher: '',
            sequential: true,
            hooks: [
              {
                type: 'command',
                name: 'tokenless-tool-ready',
                description: 'Pre-checks tool environment readiness',
                command: 'bash ${extensionPath}/hooks/tool_ready_hook.sh',
                timeout: 10000,
                env: { TOKENLESS_AGENT_ID: 'copilot-shell' },
                fail_open: true,
              },
            ],
          },
        ],
        BeforeModel: [{ hooks: [{ type: 'command', name: 'x', command: 'python3 x.py' }] }],
      },
    };
    expect(schemaDiagnostics('cosh-extension', doc, noLines, '/e/cosh-extension.json')).toEqual([]);
    expect(schemaDiagnostics('cosh-extension', { name: 'anolisa-os-skills', skills: '.' }, noLines, 'f')).toEqual([]);
  });

  it('checks the name, the hook type and the event names', () => {
    const doc = {
      name: 'Agent-Sec',
      hooks: { PreToolUse: [{ hooks: [{ type: 'script', name: 'scan', command: 'x' }] }], OnBoot: [] },
    };
    const ds = schemaDiagnostics('cosh-extension', doc, noLines, '/e/cosh-extension.json');
    expect(ds.map((d) => [d.severity, d.code, d.message, d.hook])).toEqual([
      [
        'error',
        'schema_pattern',
        'name: must be lowercase letters and digits, with ".", "_" or "-" only inside, at most 64 characters, got "Agent-Sec"',
        undefined,
      ],
      ['error', 'schema_additional_properties', 'hooks: unknown event "OnBoot"', undefined],
      [
        'error',
        'schema_enum',
        'hooks.PreToolUse[0].hooks[0].type: must be equal to one of the allowed values (command)',
        'scan',
      ],
    ]);
  });

  it('limits the name to 64 characters', () => {
    const ok = 'a'.repeat(64);
    expect(schemaDiagnostics('cosh-extension', { name: ok }, noLines, 'f')).toEqual([]);
    expect(schemaDiagnostics('cosh-extension', { name: ok + 'a' }, noLines, 'f').map((d) => d.code)).toEqual([
      'schema_pattern',
    ]);
  });
});

describe('schemaSeverity', () => {
  it('makes a cosh unknown key a warning, except an unknown event', () => {
    expect(
      schemaSeverity('cosh-extension', { keyword: 'additionalProperties', instancePath: '/hooks/PreToolUse/0' }),
    ).toBe('warning');
    expect(schemaSeverity('cosh-config', { keyword: 'additionalProperties', instancePath: '/hooks' })).toBe('error');
    expect(schemaSeverity('cosh-config', { keyword: 'type', instancePath: '/hooks/Stop' })).toBe('error');
    expect(schemaSeverity('compozy-config', { keyword: 'additionalProperties', instancePath: '/x' })).toBe('error');
  });
});

describe('paths', () => {
  it('decodes JSON pointers with the document telling keys from indexes', () => {
    const doc = { hooks: { '0': [{ 'a/b': { '~x': 1 } }] } };
    expect(pointerToPath('/hooks/0/0/a~1b/~0x', doc)).toEqual(['hooks', '0', 0, 'a/b', '~x']);
    expect(pointerToPath('', doc)).toEqual([]);
  });

  it('writes paths as dotted keys with quoted odd keys', () => {
    expect(pathText('compozy-config', ['hooks', 'declarations', 0, 'env', 'A-B'])).toBe(
      'hooks.declarations[0].env["A-B"]',
    );
    expect(pathText('compozy-skill', [])).toBe('front matter');
  });
});

// ---------------------------------------------------------------------------------------------

describe('shipped schemas', () => {
  it('are draft-07 with an $id and a title', () => {
    for (const kind of KINDS) {
      const schema = schemaFile(kind);
      expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
      expect(schema.$id).toBe(`urn:hookctl:schema:${kind}`);
      expect(typeof schema.title).toBe('string');
    }
  });

  it('use only keywords Taplo and the YAML language server understand', () => {
    const allowed = new Set([
      '$schema',
      '$id',
      '$ref',
      'title',
      'description',
      'markdownDescription',
      'default',
      'definitions',
      'type',
      'properties',
      'additionalProperties',
      'required',
      'enum',
      'pattern',
      'items',
      'minimum',
      'maximum',
      'propertyNames',
      'oneOf',
      'anyOf',
    ]);
    const used = new Set<string>();
    const walk = (node: unknown, names: boolean): void => {
      if (Array.isArray(node)) return node.forEach((n) => walk(n, false));
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (!names) used.add(key);
        if (key === 'enum' || key === 'required' || key === 'default') continue;
        walk(value, !names && (key === 'properties' || key === 'definitions'));
      }
    };
    for (const kind of KINDS) walk(schemaFile(kind), false);
    expect([...used].filter((k) => !allowed.has(k))).toEqual([]);
  });

  it('list the events and matcher fields of every release (a schema cannot know which one runs)', () => {
    const events = eventsOfAnyRelease();
    expect(events).toContain('sandbox.prepare');
    expect(events).toContain('subagent.settled');
    expect(events).not.toContain('call.created');
    const matcherFields = [...matcherFieldsOfAnyRelease()].filter((f) => f !== 'agent_type');
    const nested = matcherFields.filter((f) => !AUTONOMY_FIELDS.includes(f));
    const retired = ['compaction_reason', 'compaction_strategy'];
    for (const [kind, flat] of [
      ['compozy-config', true],
      ['compozy-extension', false],
      ['compozy-agent', true],
      ['compozy-skill', false],
    ] as const) {
      const defs = schemaFile(kind).definitions as Record<string, Record<string, unknown>>;
      expect(defs.event!.enum).toEqual(events);
      const keys = Object.keys(defs.matcher!.properties as object).sort();
      const expected = [...(flat ? [...nested, ...AUTONOMY_FIELDS] : nested), 'autonomy', ...retired];
      expect(keys).toEqual([...new Set(expected)].sort());
      expect(Object.keys(defs.autonomy!.properties as object)).toEqual([...AUTONOMY_FIELDS]);
    }
  });

  it('close [resources] on the keys the extension loader accepts', () => {
    const resources = (schemaFile('compozy-extension') as { properties: { resources: { properties: object } } })
      .properties.resources;
    expect(Object.keys(resources.properties).sort()).toEqual([...RESOURCE_KEYS].sort());
  });

  it('list the eight cosh events', () => {
    const names = coshEvents().map((e) => e.name);
    const config = schemaFile('cosh-config') as { properties: { hooks: { properties: object } } };
    const extension = schemaFile('cosh-extension') as { properties: { hooks: { properties: object } } };
    expect(Object.keys(config.properties.hooks.properties)).toEqual(['enabled', ...names]);
    expect(Object.keys(extension.properties.hooks.properties)).toEqual(names);
  });
});

describe('precompiled validators', () => {
  const documents: Record<SchemaKind, unknown[]> = {
    'compozy-config': [
      {},
      [],
      'text',
      configWith(declaration()),
      configWith(declaration({ mode: 'x', priority: 1.5, env: { '1X': 2 }, matcher: { tool_read_only: 'no' } })),
      configWith({ event: 'nope', executor: { kind: 'wasm', extra: 1, env: [] } }),
      { hooks: { declarations: {} }, skills: { allowed_marketplace_hooks: [1] } },
      { hooks: [] },
    ],
    'compozy-extension': [
      {},
      { extension: { name: 'x' }, resources: { hooks: [declaration({ enabled: true })] } },
      { extension: 'x', resources: { hooks: 'x' } },
    ],
    'compozy-agent': [{ name: 'a' }, { name: 1, hooks: [declaration({ metadata: { a: 1 } })] }, null],
    'compozy-skill': [
      { name: 's' },
      { metadata: { compozy: { hooks: [{ event: 'on_session_created', timeout: '-1s', secret_env: { K: 'x' } }] } } },
      { name: 's', metadata: [] },
    ],
    'cosh-config': [
      {},
      { hooks: { enabled: 1, Stop: {}, X: 1 } },
      { hooks: { PreToolUse: [{ timeout: -1, env: { A: 1 } }] } },
    ],
    'cosh-extension': [
      { name: 'ok' },
      {
        name: '-bad-',
        version: 1,
        hooks: { Stop: [{ matcher: 1, sequential: 'y', hooks: [{ type: 'x', timeout: 1.5 }] }] },
      },
      { hooks: [] },
    ],
    hooktest: [
      { cases: [] },
      { cases: [{ name: 'c', event: 'tool.pre_call', expect: { exit_code: 1.5, ran: 'a', outcomes: { a: 1 } } }] },
      { name: 1, env: { '1X': 'v' }, cases: [{ event: 1, extra: true }], other: 1 },
    ],
  };

  it('give the same errors as ajv compiling the shipped schema at run time', () => {
    const ajv = new Ajv({ allErrors: true, strict: true });
    for (const kind of KINDS) {
      const runtime = ajv.compile(schemaFile(kind));
      for (const doc of documents[kind]) {
        const expectedValid = runtime(doc);
        const valid = validators[kind](doc);
        expect(valid, `${kind} ${JSON.stringify(doc)}`).toBe(expectedValid);
        const simplify = (errors: readonly object[] | null | undefined): object[] =>
          (errors ?? []).map((e) => {
            const { instancePath, keyword, params, message, propertyName } = e as Record<string, unknown>;
            return { instancePath, keyword, params, message, propertyName };
          });
        expect(simplify(validators[kind].errors)).toEqual(simplify(runtime.errors));
      }
    }
  });

  it('are up to date with the schemas', () => {
    expect(() =>
      execFileSync(process.execPath, [join(root, 'scripts/build-validators.mjs'), '--check'], { stdio: 'pipe' }),
    ).not.toThrow();
  });
});
