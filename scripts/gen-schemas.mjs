#!/usr/bin/env node
// Dev-time only: writes the committed JSON Schemas under schemas/ (SPEC §2, §4.2, §4.3) from the
// declaration rules below and the CompozyOS event catalog, so the event `enum`s and the matcher
// field names never drift from the catalog. Nothing reads the catalog at run time;
// `scripts/build-validators.mjs` compiles the committed schemas.
//
//   node scripts/gen-schemas.mjs path/to/compozy-events.next.json [--check]
//
// The catalog across releases (SPEC §10): a file schema cannot know which CompozyOS release the
// user runs, so it accepts every event and matcher field that some release has (items only on
// the snapshot line outside the release order are left out), and names the payload field each
// matcher field reads as the catalog does. Which release has what is for `hooks validate`'s rules
// (`--compozy-version`). The one-release compozy-events.json is still read the same way.
// `--check` writes nothing and exits 1 when a committed schema differs from what this script
// would write.
//
// The schemas stay inside draft-07 keywords that Taplo (TOML) and the YAML/JSON language servers
// understand: type, properties, additionalProperties, required, enum, pattern, items,
// minimum/maximum, propertyNames, description, default, $ref/definitions. They close only the
// objects whose unknown keys the runtimes reject (compozy declarations, the cosh event maps);
// everything else is open so host-runtime keys are never flagged.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const catalogPath = resolve(root, args.find((a) => !a.startsWith('--')) ?? '../shared/spec/compozy-events.json');
const catalog = JSON.parse(readFileSync(catalogPath, 'utf8'));
/** Version labels outside the release order: an item since one of them exists in no release. */
const OUTSIDE_RELEASES = new Set((catalog.versions ?? []).filter((v) => v.linear === false).map((v) => v.label));
const inSomeRelease = (item) => typeof item === 'string' || !OUTSIDE_RELEASES.has(item.since);
const fieldName = (m) => (typeof m === 'string' ? m : m.name);

const DRAFT = 'http://json-schema.org/draft-07/schema#';
const idOf = (name) => `urn:hookctl:schema:${name}`;

// Patterns shared with src/validate/schema-check.ts, which turns them into readable messages.
const GO_DURATION = '^(0|(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$';
const ENV_NAME = '^[A-Za-z_][A-Za-z0-9_]*$';
const SECRET_REF = '^(env:[A-Za-z_][A-Za-z0-9_]*|vault:hooks/.+)$';
const COSH_EXTENSION_NAME = '^[a-z0-9]([a-z0-9._-]{0,62}[a-z0-9])?$';
// Semantic versioning as CompozyOS parses it (an optional leading v), as src/dialects/compozy/sources/extension.ts.
const SEMVER_NUM = '(0|[1-9][0-9]*)';
const SEMVER_PRE = `(${SEMVER_NUM}|[0-9]*[A-Za-z-][0-9A-Za-z-]*)`;
const SEMVER = `^[vV]?${SEMVER_NUM}\\.${SEMVER_NUM}\\.${SEMVER_NUM}(-${SEMVER_PRE}(\\.${SEMVER_PRE})*)?(\\+[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*)?$`;
// The keys CompozyOS reads under [resources] (upstream ResourcesConfig), as RESOURCE_KEYS of
// src/dialects/compozy/sources/extension.ts; validate-schemas.test.ts checks they agree.
const RESOURCE_KEYS = [
  'skills',
  'loops',
  'agents',
  'automation',
  'layouts',
  'hooks',
  'tools',
  'command_groups',
  'cmd_palette',
  'mcp_servers',
  'publish',
];
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

// ---------------------------------------------------------------------------------------------
// CompozyOS

const EVENTS = catalog.events
  .filter((e) => inSomeRelease(e) && inSomeRelease(catalog.families[e.family] ?? {}))
  .map((e) => e.name);

// SPEC §2.2: written under matcher.autonomy in every source. Mirrors AUTONOMY_FIELDS of
// src/dialects/compozy/events.ts (this script cannot import TypeScript); validate-schemas.test.ts checks.
const AUTONOMY_FIELDS = [
  'task_id',
  'run_id',
  'loop_run_id',
  'loop_name',
  'node_id',
  'workflow_id',
  'participation_channel',
  'coordinator_session_id',
  'parent_session_id',
  'root_session_id',
  'child_session_id',
  'spawn_role',
  'release_reason',
];
const RETIRED_MATCHER_KEYS = ['compaction_reason', 'compaction_strategy'];

// SPEC §2.2 "How each matcher field reads the payload".
const PAYLOAD_FIELD = {
  workspace_root: 'workspace',
  tool_id: 'tool_id',
  tool_read_only: 'read_only',
  tool_name: 'tool_call.kind',
  acp_event_type: 'record_type',
  message_delta_type: 'delta_type',
  compaction_trigger: 'trigger',
};

/** matcher field -> where it is accepted (family names, or event names for event overrides). */
function matcherFieldUse() {
  const use = new Map();
  const add = (field, where) => {
    if (!use.has(field)) use.set(field, []);
    if (!use.get(field).includes(where)) use.get(field).push(where);
  };
  for (const [family, data] of Object.entries(catalog.families)) {
    if (!inSomeRelease(data)) continue;
    for (const f of data.matcher_fields) {
      if (inSomeRelease(f) && !RETIRED_MATCHER_KEYS.includes(fieldName(f))) add(fieldName(f), family);
    }
  }
  for (const e of catalog.events) {
    if (!EVENTS.includes(e.name)) continue;
    for (const f of e.matcher_fields ?? []) add(fieldName(f), e.name);
  }
  return use;
}

/**
 * matcher field -> the payload path the catalog names for it: a family's, else (for a field only
 * events accept) the first event's. Per-event exceptions are left to `hookctl hooks events`.
 */
function catalogPayloadPaths() {
  const paths = {};
  const familyFields = new Set();
  for (const data of Object.values(catalog.families)) {
    for (const f of data.matcher_fields ?? []) familyFields.add(fieldName(f));
    for (const [field, value] of Object.entries(data.matcher_payload_fields ?? {})) {
      paths[field] ??= String(value).split(' ')[0];
    }
  }
  for (const e of catalog.events) {
    for (const [field, value] of Object.entries(e.matcher_payload_fields ?? {})) {
      if (!familyFields.has(field)) paths[field] ??= String(value);
    }
  }
  return paths;
}
const CATALOG_PAYLOAD_FIELD = catalogPayloadPaths();

function matcherFieldSchema(field, where) {
  const reads = CATALOG_PAYLOAD_FIELD[field] ?? PAYLOAD_FIELD[field] ?? field;
  if (field === 'tool_read_only') {
    return {
      type: 'boolean',
      description: `Exact match against the payload's \`${reads}\`. Accepted by: ${where.join(', ')}.`,
    };
  }
  let description =
    `Exact value or Go path.Match wildcard (\`*\`, \`?\`, \`[...]\`) on the payload's \`${reads}\`; ` +
    `empty or \`*\` matches every value. Accepted by: ${where.join(', ')}.`;
  if (field === 'compaction_trigger') {
    description += ' Values: `requested` (the runtime asked for the compaction) or `agent` (the agent started it).';
  }
  if (field === 'tool_id') description += ' A canonical tool id such as `compozy__workspace_info`, or a pattern.';
  return { type: 'string', description };
}

function autonomySchema() {
  const properties = {};
  for (const f of AUTONOMY_FIELDS) {
    properties[f] = {
      type: 'string',
      description: `Autonomy correlation field: exact value or Go path.Match wildcard on the payload's \`${f}\`.`,
    };
  }
  return {
    type: 'object',
    description: 'Autonomy correlation fields. They are matched like every string matcher field.',
    properties,
    additionalProperties: false,
  };
}

/**
 * The matcher table. `flatAutonomy`: config.toml and AGENT.md still accept autonomy fields written
 * flat (as earlier releases wrote them), with a warning from `hooks validate`.
 */
function matcherSchema({ flatAutonomy }) {
  const properties = {};
  for (const [field, where] of matcherFieldUse()) {
    if (AUTONOMY_FIELDS.includes(field)) continue;
    properties[field] = matcherFieldSchema(field, where);
  }
  properties.autonomy = { $ref: '#/definitions/autonomy' };
  if (flatAutonomy) {
    for (const f of AUTONOMY_FIELDS) {
      properties[f] = {
        type: 'string',
        description: `Deprecated here: write \`${f}\` under \`matcher.autonomy\`. Still accepted, with a warning.`,
      };
    }
  }
  for (const key of RETIRED_MATCHER_KEYS) {
    properties[key] = {
      description:
        'Retired: ignored (the hook runs with no trigger filter) and `hooks validate` warns. ' +
        'Use `compaction_trigger` instead.',
    };
  }
  return {
    type: 'object',
    description:
      'Which payloads the hook runs for. All set fields must match. Each event family accepts only its own ' +
      'fields (see `hookctl hooks events`).',
    properties,
    additionalProperties: false,
  };
}

const stringMap = (description) => ({ type: 'object', description, additionalProperties: { type: 'string' } });

function commonDefinitions({ flatAutonomy }) {
  return {
    event: {
      type: 'string',
      description: 'A CompozyOS event from the event catalog (`hookctl hooks events`).',
      enum: EVENTS,
    },
    mode: {
      type: 'string',
      description:
        '`sync` hooks run in order and may patch the payload; `async` hooks are queued after the sync chain.',
      enum: ['sync', 'async'],
      default: 'async',
    },
    priority: {
      type: 'integer',
      description: 'Higher runs first within the same source. An explicit 0 counts as set.',
      minimum: INT32_MIN,
      maximum: INT32_MAX,
    },
    timeout: {
      type: 'string',
      description: 'Go duration such as "250ms", "5s" or "1m30s". "0" means the executor default (5s).',
      pattern: GO_DURATION,
      default: '0',
    },
    command: { type: 'string', description: 'Executable: absolute, relative, or a bare name looked up on PATH.' },
    args: { type: 'array', description: 'Arguments, passed verbatim (no shell).', items: { type: 'string' } },
    env: {
      type: 'object',
      description:
        'Extra environment for the hook. Secret-like names (…TOKEN, …SECRET, …PASSWORD, …API_KEY) must go in secret_env.',
      propertyNames: { pattern: ENV_NAME },
      additionalProperties: { type: 'string' },
    },
    secret_env: {
      type: 'object',
      description: 'Secrets resolved at fire time: `env:NAME` (from the invoking environment) or `vault:hooks/...`.',
      propertyNames: { pattern: ENV_NAME },
      additionalProperties: { type: 'string', pattern: SECRET_REF },
    },
    executor: {
      type: 'object',
      description:
        'Executor fields. command/args/env/secret_env go either here or at the top level of the declaration, never both.',
      properties: {
        kind: {
          type: 'string',
          description:
            'Empty with a command = `subprocess`. `native` is for native sources only; `http`, `agent` and `wasm` ' +
            'are recognised but not implemented.',
          enum: ['', 'subprocess', 'native', 'http', 'agent', 'wasm'],
        },
        command: { $ref: '#/definitions/command' },
        args: { $ref: '#/definitions/args' },
        env: { $ref: '#/definitions/env' },
        secret_env: { $ref: '#/definitions/secret_env' },
      },
      additionalProperties: false,
    },
    matcher: matcherSchema({ flatAutonomy }),
    autonomy: autonomySchema(),
  };
}

/** A declaration of config.toml, AGENT.md (`withUserFields`) or an extension manifest. */
function declarationSchema({ withUserFields }) {
  const properties = {
    name: { type: 'string', description: 'Hook name (trimmed). Unique within its file.' },
    event: { $ref: '#/definitions/event' },
    mode: { $ref: '#/definitions/mode' },
    required: {
      type: 'boolean',
      description: 'Sync only: a failure of this hook fails the whole dispatch.',
      default: false,
    },
    priority: { $ref: '#/definitions/priority' },
    timeout: { $ref: '#/definitions/timeout' },
  };
  if (withUserFields) {
    properties.enabled = {
      type: 'boolean',
      description: '`false` leaves the hook out of dispatch; it is still validated.',
      default: true,
    };
    properties.metadata = stringMap('Free-form string labels.');
  }
  Object.assign(properties, {
    matcher: { $ref: '#/definitions/matcher' },
    command: { $ref: '#/definitions/command' },
    args: { $ref: '#/definitions/args' },
    env: { $ref: '#/definitions/env' },
    secret_env: { $ref: '#/definitions/secret_env' },
    executor: { $ref: '#/definitions/executor' },
  });
  return {
    type: 'object',
    description: 'One hook declaration: binds one event to one executor. Unknown keys are errors.',
    properties,
    required: ['name', 'event'],
    additionalProperties: false,
  };
}

function compozyConfigSchema() {
  return {
    $schema: DRAFT,
    $id: idOf('compozy-config'),
    title: 'CompozyOS config.toml (hooks)',
    description:
      'CompozyOS config.toml as hookctl reads it: `[[hooks.declarations]]` and `skills.allowed_marketplace_hooks`. ' +
      'Other tables belong to the host runtime.',
    type: 'object',
    properties: {
      hooks: {
        type: 'object',
        description: 'Hook settings.',
        properties: {
          declarations: {
            type: 'array',
            description: 'Hook declarations (`[[hooks.declarations]]`).',
            items: { $ref: '#/definitions/declaration' },
          },
        },
      },
      skills: {
        type: 'object',
        description: 'Skill settings.',
        properties: {
          allowed_marketplace_hooks: {
            type: 'array',
            description: 'Marketplace skills whose hooks may run, by `slug`, `registry:slug` or `hash`.',
            items: { type: 'string' },
          },
        },
      },
    },
    definitions: {
      declaration: declarationSchema({ withUserFields: true }),
      ...commonDefinitions({ flatAutonomy: true }),
    },
  };
}

function compozyExtensionSchema() {
  return {
    $schema: DRAFT,
    $id: idOf('compozy-extension'),
    title: 'CompozyOS extension manifest (extension.toml / extension.json)',
    description:
      'An extension manifest: `[extension]` and hooks in `[[resources.hooks]]`. Other tables (`[capabilities]`, ' +
      '`[permissions]`, `[subprocess]`, …) belong to the runtime.',
    type: 'object',
    properties: {
      extension: {
        type: 'object',
        description: 'Extension identity.',
        properties: {
          name: { type: 'string', description: 'Extension name; hooks get `metadata.extension` = this name.' },
          version: {
            type: 'string',
            pattern: SEMVER,
            description: 'Extension version, a semantic version (`0.1.0`; CompozyOS refuses `latest`). Required.',
          },
          description: { type: 'string', description: 'One-line description.' },
          min_compozy_version: {
            type: 'string',
            pattern: SEMVER,
            description: 'Oldest CompozyOS release the extension supports, a semantic version.',
          },
        },
        required: ['name'],
      },
      resources: {
        type: 'object',
        description: 'Resources the extension contributes. CompozyOS rejects any other key here.',
        additionalProperties: false,
        properties: {
          ...Object.fromEntries(
            RESOURCE_KEYS.filter((k) => k !== 'hooks').map((k) => [
              k,
              { description: `Runtime resources (\`${k}\`).` },
            ]),
          ),
          hooks: {
            type: 'array',
            description:
              'Hook declarations (`[[resources.hooks]]`): the config fields without `enabled` and `metadata`. ' +
              '`command`, `args` and `env` values expand `{{config_dir}}` and `{{env:NAME}}`.',
            items: { $ref: '#/definitions/declaration' },
          },
        },
      },
    },
    required: ['extension'],
    definitions: {
      declaration: declarationSchema({ withUserFields: false }),
      ...commonDefinitions({ flatAutonomy: false }),
    },
  };
}

function compozyAgentSchema() {
  return {
    $schema: DRAFT,
    $id: idOf('compozy-agent'),
    title: 'CompozyOS AGENT.md front matter (hooks)',
    description:
      'AGENT.md front matter. Every hook gets `matcher.agent_name` = the agent name. Other keys belong to the host runtime.',
    type: 'object',
    properties: {
      name: { type: 'string', description: 'Agent name; must equal the folder name.' },
      hooks: {
        type: 'array',
        description: 'Hook declarations, as in config.toml.',
        items: { $ref: '#/definitions/declaration' },
      },
    },
    required: ['name'],
    definitions: {
      declaration: declarationSchema({ withUserFields: true }),
      ...commonDefinitions({ flatAutonomy: true }),
    },
  };
}

function compozySkillSchema() {
  const common = commonDefinitions({ flatAutonomy: false });
  return {
    $schema: DRAFT,
    $id: idOf('compozy-skill'),
    title: 'CompozyOS SKILL.md front matter (hooks)',
    description: 'SKILL.md front matter: hooks live in `metadata.compozy.hooks`. Other keys belong to the runtime.',
    type: 'object',
    properties: {
      name: { type: 'string', description: 'Skill name; its hooks are named after it (`<skill>#<n>` when several).' },
      description: { type: 'string', description: 'What the skill is for.' },
      metadata: {
        type: 'object',
        description: 'Skill metadata.',
        properties: {
          compozy: {
            type: 'object',
            description: 'CompozyOS metadata. Keys other than `hooks` belong to the runtime.',
            properties: {
              hooks: {
                type: 'array',
                description: 'Skill hooks. No `name`, `required`, `enabled`, `metadata` or `executor`.',
                items: { $ref: '#/definitions/skill_hook' },
              },
            },
          },
        },
      },
    },
    required: ['name'],
    definitions: {
      skill_hook: {
        type: 'object',
        description: 'One skill hook. Unknown keys are errors.',
        properties: {
          event: { $ref: '#/definitions/event' },
          mode: { $ref: '#/definitions/mode' },
          priority: { $ref: '#/definitions/priority' },
          timeout: { $ref: '#/definitions/timeout' },
          command: { $ref: '#/definitions/command' },
          args: { $ref: '#/definitions/args' },
          env: { $ref: '#/definitions/env' },
          secret_env: { $ref: '#/definitions/secret_env' },
          matcher: { $ref: '#/definitions/matcher' },
        },
        required: ['event', 'command'],
        additionalProperties: false,
      },
      ...pick(common, [
        'event',
        'mode',
        'priority',
        'timeout',
        'command',
        'args',
        'env',
        'secret_env',
        'matcher',
        'autonomy',
      ]),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// cosh — unknown keys are warnings in cosh, so only the event maps are closed.

const COSH_EVENTS = [
  ['PreToolUse', 'Before tool execution. Decisions: block, allow, ask.'],
  ['PostToolUse', 'After tool execution. Decisions: block, allow.'],
  ['PostToolUseFailure', 'After tool execution failure. Not interceptable.'],
  ['UserPromptSubmit', 'When a user message is submitted. Decisions: block, allow.'],
  ['SessionStart', 'After session initialization. Not interceptable.'],
  ['Stop', 'When the agent decides to stop. Decisions: block, allow.'],
  ['BeforeModel', 'Before the LLM request is sent. Not interceptable.'],
  ['AfterModel', 'After the LLM response is received. Not interceptable.'],
];
const COSH_MATCHER =
  'Unanchored regex searched in `tool_name` (write `^shell$` for an exact name); empty matches every tool. ' +
  'Used by PreToolUse, PostToolUse and PostToolUseFailure only.';
const COSH_TIMEOUT = {
  type: 'integer',
  description: 'Milliseconds; default 5000. A timeout counts as pass-through.',
  minimum: 0,
  default: 5000,
};
const COSH_ENV = stringMap('Added to the hook environment.');

function coshEventMap(itemsRef, extra = {}) {
  const properties = { ...extra };
  for (const [event, description] of COSH_EVENTS) {
    properties[event] = { type: 'array', description, items: { $ref: itemsRef } };
  }
  return properties;
}

function coshConfigSchema() {
  return {
    $schema: DRAFT,
    $id: idOf('cosh-config'),
    title: 'cosh-core config.toml (hooks)',
    description:
      'copilot-shell config.toml as hookctl reads it: `[hooks]` and `[[hooks.<Event>]]`. Other tables belong to the runtime.',
    type: 'object',
    properties: {
      hooks: {
        type: 'object',
        description: 'Hooks per event. Event names other than the eight are errors.',
        properties: coshEventMap('#/definitions/hook', {
          enabled: {
            type: 'boolean',
            description:
              '`false` drops the config hooks of every layer (extension hooks still run). The highest layer that sets it wins.',
            default: true,
          },
        }),
        additionalProperties: false,
      },
    },
    definitions: {
      hook: {
        type: 'object',
        description: 'One hook. Unknown keys are warnings.',
        properties: {
          name: { type: 'string', description: 'Hook name. A hook without a name is skipped.' },
          command: { type: 'string', description: 'Run as `sh -c <command>`.' },
          timeout: COSH_TIMEOUT,
          matcher: { type: 'string', description: COSH_MATCHER },
          env: COSH_ENV,
        },
        required: ['command'],
      },
    },
  };
}

function coshExtensionSchema() {
  return {
    $schema: DRAFT,
    $id: idOf('cosh-extension'),
    title: 'cosh-core extension manifest (cosh-extension.json)',
    description: 'A cosh extension manifest. Unknown keys are warnings.',
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description:
          'Extension name: lowercase letters and digits at both ends, `.`, `_`, `-` inside, at most 64 characters.',
        pattern: COSH_EXTENSION_NAME,
      },
      version: { type: 'string', description: 'Extension version.', default: '0.0.0' },
      skills: { description: 'Folder of the skills the extension ships.' },
      contextFileName: { description: 'Context file the extension contributes.' },
      hooks: {
        type: 'object',
        description: 'Hook groups per event. Event names other than the eight are errors.',
        properties: coshEventMap('#/definitions/group'),
        additionalProperties: false,
      },
    },
    required: ['name'],
    definitions: {
      group: {
        type: 'object',
        description: 'A group of hooks sharing one matcher.',
        properties: {
          matcher: { type: 'string', description: COSH_MATCHER },
          sequential: { type: 'boolean', description: 'Accepted; cosh hooks always run in order.' },
          hooks: { type: 'array', description: 'The hooks, run in order.', items: { $ref: '#/definitions/hook' } },
        },
      },
      hook: {
        type: 'object',
        description:
          "One hook; inherits its group's matcher. `${extensionPath}`, `${workspacePath}` and `${/}` expand in command and env values.",
        properties: {
          type: { type: 'string', description: 'Hook type.', enum: ['command'] },
          name: { type: 'string', description: 'Hook name. A hook without a name is skipped.' },
          command: { type: 'string', description: 'Run as `sh -c <command>`.' },
          timeout: COSH_TIMEOUT,
          description: { type: 'string', description: 'What the hook does.' },
          env: COSH_ENV,
        },
        required: ['command'],
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------

function pick(obj, keys) {
  return Object.fromEntries(keys.map((k) => [k, obj[k]]));
}

const outputs = [
  ['compozy-config.schema.json', compozyConfigSchema()],
  ['compozy-extension.schema.json', compozyExtensionSchema()],
  ['compozy-agent.schema.json', compozyAgentSchema()],
  ['compozy-skill.schema.json', compozySkillSchema()],
  ['cosh-config.schema.json', coshConfigSchema()],
  ['cosh-extension.schema.json', coshExtensionSchema()],
];

let stale = 0;
for (const [name, schema] of outputs) {
  const file = join(root, 'schemas', name);
  const text = await format(file, JSON.stringify(schema, null, 2) + '\n');
  if (check) {
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      // missing counts as stale
    }
    if (current !== text) {
      stale++;
      console.error(`gen-schemas: ${relative(root, file)} is stale`);
    }
  } else {
    writeFileSync(file, text);
    console.log(`gen-schemas: wrote ${relative(root, file)}`);
  }
}
if (stale) process.exit(1);

/** Prettier (when present) so `prettier --check .` passes on the committed files. */
async function format(file, text) {
  let prettier;
  try {
    prettier = await import('prettier');
  } catch {
    return text;
  }
  const config = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(text, { printWidth: 120, ...config, filepath: file });
}
