// How a compozy hook runs (SPEC §2.1 executor fields, env, secret_env; §2.4 extension templates):
// top-level or nested executor fields, the executor kind, env names, secret references.
import type { ExecutorKind } from '../../../declarations/model.js';
import type { PathSeg } from '../../../declarations/source-file.js';
import { q, type Checker, type Table } from './checker.js';
import type { RawHook } from './declaration.js';
import { ENV_NAME_RE, isSecretLikeName, parseSecretRef } from '../../../declarations/secrets.js';
import { EXECUTOR_FIELDS, SOURCE_RULES } from './sources.js';
import { expandTemplates } from './templates.js';

const EXECUTOR_TABLE_KEYS = new Set(['kind', ...EXECUTOR_FIELDS]);
const NOT_IMPLEMENTED_KINDS = new Set(['http', 'agent', 'wasm']);

interface ExecutorFields {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  secretEnv?: Record<string, string>;
}

interface Executor {
  kind: ExecutorKind;
  command: string;
  args: string[];
  env: Record<string, string>;
  secretEnv: Record<string, string>;
}

function readExecutorFields(check: Checker, table: Table, base: PathSeg[]): ExecutorFields {
  return {
    command: check.string(table, 'command', base),
    args: check.stringList(table, 'args', base),
    env: check.stringMap(table, 'env', base),
    secretEnv: check.stringMap(table, 'secret_env', base),
  };
}

function specified(f: ExecutorFields): boolean {
  return (
    (f.command ?? '').trim() !== '' ||
    (f.args ?? []).length > 0 ||
    Object.keys(f.env ?? {}).length > 0 ||
    Object.keys(f.secretEnv ?? {}).length > 0
  );
}

export function readExecutor(check: Checker, value: Table, raw: RawHook): Executor | undefined {
  const top = readExecutorFields(check, value, []);
  let nested: ExecutorFields = {};
  let kindWritten = '';
  const table = SOURCE_RULES[raw.source].keys.has('executor') ? check.table(value, 'executor', []) : undefined;
  if (table !== undefined) {
    for (const key of Object.keys(table)) {
      if (!EXECUTOR_TABLE_KEYS.has(key)) {
        check.error('unknown_field', `${check.hookRef} has unknown field ${q(`executor.${key}`)}`, ['executor', key]);
      }
    }
    nested = readExecutorFields(check, table, ['executor']);
    kindWritten = (check.string(table, 'kind', ['executor']) ?? '').trim();
  }
  const topSet = specified(top);
  const nestedSet = specified(nested);
  if (topSet && nestedSet) {
    check.error(
      'executor_fields_conflict',
      'hook executor fields must be declared either at the top level or under executor, not both',
      ['executor'],
    );
  }
  const fields = nestedSet ? nested : top;
  const base: PathSeg[] = nestedSet ? ['executor'] : [];
  const command = (fields.command ?? '').trim();
  const args = fields.args ?? [];
  const env = fields.env ?? {};
  const secretEnv = fields.secretEnv ?? {};

  const kind = resolveExecutorKind(check, raw, kindWritten, command, base);
  if (kind !== undefined && kind !== 'subprocess' && specified(fields)) {
    check.error(
      'executor_fields_require_subprocess',
      `${check.hookRef} shell command fields require a subprocess executor`,
      ['executor', 'kind'],
    );
  }
  checkEnv(check, env, [...base, 'env']);
  checkSecretEnv(check, secretEnv, [...base, 'secret_env']);
  check.command = { written: command, at: [...base, 'command'] };
  if (kind === undefined) return undefined;
  const executor: Executor = { kind, command, args, env, secretEnv };
  return raw.extension ? expandExtensionTemplates(check, raw.extension, base, executor) : executor;
}

function resolveExecutorKind(
  check: Checker,
  raw: RawHook,
  written: string,
  command: string,
  base: PathSeg[],
): ExecutorKind | undefined {
  if (raw.source === 'skill') {
    // SKILL.md hooks have no executor: always a subprocess, and the command is required.
    if (command === '') check.error('command_required', 'command is required', ['command']);
    return 'subprocess';
  }
  let kind: ExecutorKind;
  if (written === '') {
    if (command !== '') kind = 'subprocess';
    else if (raw.source === 'native') kind = 'native';
    else {
      check.error('executor_kind_required', `${check.hookRef} executor kind is required`, ['executor']);
      return undefined;
    }
  } else if (written === 'subprocess' || written === 'native') kind = written;
  else if (NOT_IMPLEMENTED_KINDS.has(written)) {
    check.error('executor_not_implemented', 'hooks: executor not implemented', ['executor', 'kind']);
    return undefined;
  } else {
    check.error('invalid_executor_kind', `hooks: invalid hook executor kind ${q(written)}`, ['executor', 'kind']);
    return undefined;
  }
  if (kind === 'native' && raw.source !== 'native') {
    check.error('native_executor_forbidden', `${check.hookRef} only native sources may use native executors`, [
      'executor',
      'kind',
    ]);
  }
  if (kind === 'subprocess' && command === '') {
    check.error('command_required', `${check.hookRef} subprocess executor requires a command`, [...base, 'command']);
  }
  return kind;
}

function checkEnv(check: Checker, env: Record<string, string>, at: PathSeg[]): void {
  for (const key of Object.keys(env)) {
    const name = key.trim();
    if (name === '')
      check.error('invalid_env_name', `${check.hookRef} env contains an empty environment variable name`, at);
    else if (!ENV_NAME_RE.test(name)) {
      check.error('invalid_env_name', `${check.hookRef} env.${name} must be an environment variable name`, [
        ...at,
        key,
      ]);
    } else if (isSecretLikeName(name)) {
      check.error('secret_env_name', `${check.hookRef} env.${name} must move secret-like values to secret_env`, [
        ...at,
        key,
      ]);
    }
  }
}

function checkSecretEnv(check: Checker, secretEnv: Record<string, string>, at: PathSeg[]): void {
  for (const [key, ref] of Object.entries(secretEnv)) {
    const name = key.trim();
    if (name === '') {
      check.error('invalid_env_name', `${check.hookRef} secret_env contains an empty environment variable name`, at);
      continue;
    }
    if (!ENV_NAME_RE.test(name)) {
      check.error('invalid_env_name', `${check.hookRef} secret_env.${name} must be an environment variable name`, [
        ...at,
        key,
      ]);
      continue;
    }
    const parsed = parseSecretRef(ref);
    if (parsed === undefined) {
      check.error(
        'invalid_secret_ref',
        `${check.hookRef} secret_env.${name} is invalid: unsupported secret ref ${q(ref.trim())} (use env:NAME or vault:hooks/<path>)`,
        [...at, key],
      );
    } else if (parsed.kind === 'vault') {
      check.warn(
        'vault_ref_unresolvable',
        `${check.hookRef} secret_env.${name} refers to ${q(parsed.ref)}, which hookctl cannot resolve: firing this hook will fail`,
        [...at, key],
      );
    }
  }
}

/** `{{config_dir}}` and `{{env:NAME}}` in command, args items and env values (extensions only). */
function expandExtensionTemplates(
  check: Checker,
  ext: { root: string; env: NodeJS.ProcessEnv },
  base: PathSeg[],
  executor: Executor,
): Executor {
  const ctx = { configDir: ext.root, env: ext.env };
  const expand = (text: string, at: PathSeg[]): string => {
    const result = expandTemplates(text, ctx);
    if (result.ok) return result.value;
    check.error(result.code, result.message, at);
    return text;
  };
  const env: Record<string, string> = {};
  for (const [key, text] of Object.entries(executor.env)) env[key] = expand(text, [...base, 'env', key]);
  return {
    ...executor,
    command: expand(executor.command, [...base, 'command']).trim(),
    args: executor.args.map((arg, i) => expand(arg, [...base, 'args', i])),
    env,
  };
}
