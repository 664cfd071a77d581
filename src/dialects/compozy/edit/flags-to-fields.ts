// Command-line flags of `hooks create` / `hooks update` → FieldChanges (SPEC §6.1). A value that
// does not parse (`--priority abc`, `--matcher tool_id`, `--timeout soon`) is a usage error
// (exit 2); one that parses but makes the declaration invalid (`--timeout -5s`, an unknown event)
// is left for validation (`hook_validation_failed`, exit 1).
import { parseGoDuration } from '../../../declarations/duration.js';
import { usageError } from '../../../errors.js';
import { AUTONOMY_FIELDS } from '../events.js';
import { parseSecretRef } from '../../../declarations/secrets.js';
import type { EditAction, FieldChange } from './declaration-edit.js';

export interface DeclarationFlags {
  event?: string;
  command?: string;
  arg?: string[];
  mode?: string;
  required?: boolean;
  priority?: string;
  timeout?: string;
  /** FIELD=PATTERN, repeatable. */
  matcher?: string[];
  /** K=V, repeatable. */
  env?: string[];
  /** NAME=REF (`env:VAR` or a vault ref), repeatable: secret_env, resolved only when the hook runs. */
  secretEnv?: string[];
  /** update only: keys to remove. */
  unset?: string[];
}

/** The edit commands' flags (as oclif parsed them) in this file's terms. */
export function declarationFlagsOf(flags: Record<string, unknown>): DeclarationFlags {
  return {
    event: flags.event as string | undefined,
    command: flags.command as string | undefined,
    arg: flags.arg as string[] | undefined,
    mode: flags.mode as string | undefined,
    required: flags.required as boolean | undefined,
    priority: flags.priority as string | undefined,
    timeout: flags.timeout as string | undefined,
    matcher: flags.matcher as string[] | undefined,
    env: flags.env as string[] | undefined,
    secretEnv: flags['secret-env'] as string[] | undefined,
    unset: flags.unset as string[] | undefined,
  };
}

const AUTONOMY = new Set(AUTONOMY_FIELDS);
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The changes the flags ask for, in canonical order, removals last. */
export function changesFromFlags(flags: DeclarationFlags): FieldChange[] {
  const changes: FieldChange[] = [];
  if (flags.event !== undefined) changes.push({ path: ['event'], value: flags.event.trim() });
  if (flags.mode !== undefined) changes.push({ path: ['mode'], value: flags.mode });
  if (flags.required !== undefined) changes.push({ path: ['required'], value: flags.required });
  if (flags.priority !== undefined) changes.push({ path: ['priority'], value: parsePriority(flags.priority) });
  if (flags.timeout !== undefined) changes.push({ path: ['timeout'], value: parseTimeout(flags.timeout) });
  if (flags.command !== undefined) changes.push({ path: ['command'], value: flags.command });
  if (flags.arg !== undefined) changes.push({ path: ['args'], value: [...flags.arg] });
  for (const pair of flags.env ?? []) {
    const [key, value] = splitPair(pair, '--env', 'K=V');
    changes.push({ path: ['env', key], value });
  }
  for (const pair of flags.secretEnv ?? []) {
    const [key, ref] = splitPair(pair, '--secret-env', 'NAME=env:VAR');
    if (parseSecretRef(ref) === undefined)
      throw usageError(
        `--secret-env ${key}: ${JSON.stringify(ref)} is not a secret reference (env:VAR or a vault ref)`,
      );
    changes.push({ path: ['secret_env', key], value: ref.trim() });
  }
  for (const pair of flags.matcher ?? []) {
    const [field, pattern] = splitPair(pair, '--matcher', 'FIELD=PATTERN');
    const path = matcherPath(field, '--matcher');
    changes.push({
      path,
      value: path.at(-1) === 'tool_read_only' ? parseBoolean(pattern, '--matcher tool_read_only') : pattern,
    });
  }
  const removals = (flags.unset ?? []).map(parseUnsetKey);
  for (const removal of removals) {
    const clash = changes.find((c) => startsWithPath(c.path, removal.path) || startsWithPath(removal.path, c.path));
    if (clash) throw usageError(`--unset ${removal.key} conflicts with the value given for ${clash.path.join('.')}`);
  }
  return [...changes, ...removals.map((r) => ({ path: r.path }))];
}

/** `--unset` keys: timeout, priority, mode, required, enabled, args, env.K, secret_env.K, metadata.K, matcher.F, matcher.autonomy.F. */
export function parseUnsetKey(key: string): { key: string; path: string[] } {
  const k = key.trim();
  const parts = k.split('.');
  if (parts.length === 1 && ['timeout', 'priority', 'mode', 'required', 'enabled', 'args'].includes(k))
    return { key: k, path: [k] };
  if (['name', 'event', 'command'].includes(k))
    throw usageError(`--unset ${k}: ${k} is required and cannot be removed`);
  if (parts.length === 2 && ['env', 'secret_env', 'metadata'].includes(parts[0]!) && parts[1] !== '')
    return { key: k, path: parts };
  if (parts[0] === 'matcher' && parts.length > 1)
    return { key: k, path: matcherPath(parts.slice(1).join('.'), '--unset') };
  throw usageError(
    `--unset ${JSON.stringify(key)} is not a key hookctl removes: use timeout, priority, mode, required, enabled, args, env.NAME, secret_env.NAME, metadata.KEY, matcher.FIELD or matcher.autonomy.FIELD`,
  );
}

/** A matcher field → its path; autonomy fields go under matcher.autonomy (SPEC §2.2). */
function matcherPath(field: string, flag: string): string[] {
  const f = field.trim();
  const leaf = f.startsWith('autonomy.') ? f.slice('autonomy.'.length) : f;
  if (!/^[A-Za-z0-9_-]+$/.test(leaf)) throw usageError(`${flag}: ${JSON.stringify(field)} is not a matcher field name`);
  if (f.startsWith('autonomy.') || AUTONOMY.has(leaf)) return ['matcher', 'autonomy', leaf];
  return ['matcher', leaf];
}

function splitPair(text: string, flag: string, form: string): [string, string] {
  const eq = text.indexOf('=');
  const key = eq === -1 ? '' : text.slice(0, eq).trim();
  if (key === '') throw usageError(`${flag} expects ${form}, got ${JSON.stringify(text)}`);
  return [key, text.slice(eq + 1)];
}

function parsePriority(text: string): number | bigint {
  const t = text.trim();
  if (!/^[+-]?[0-9]+$/.test(t)) throw usageError(`--priority expects an integer, got ${JSON.stringify(text)}`);
  const n = BigInt(t);
  if (n < INT64_MIN || n > INT64_MAX) throw usageError(`--priority ${t} is not a 64-bit integer`);
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}

function parseTimeout(text: string): string {
  const t = text.trim();
  if (parseGoDuration(t) === undefined) {
    throw usageError(`--timeout expects a Go duration such as "250ms", "5s" or "1m30s", got ${JSON.stringify(text)}`);
  }
  return t;
}

function parseBoolean(text: string, flag: string): boolean {
  const t = text.trim();
  if (t === 'true') return true;
  if (t === 'false') return false;
  throw usageError(`${flag} expects true or false, got ${JSON.stringify(text)}`);
}

function startsWithPath(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((s, i) => s === path[i]);
}

/**
 * The changes of one action from the edit commands' flags: create needs --event and --command,
 * update at least one field; delete, enable and disable take none (undefined).
 */
export function changesForAction(action: EditAction, fields: DeclarationFlags): FieldChange[] | undefined {
  if (action === 'create') {
    for (const flag of ['event', 'command'] as const)
      if (fields[flag] === undefined) throw usageError(`hooks create needs --${flag}`);
  }
  if (action !== 'create' && action !== 'update') return undefined;
  const changes = changesFromFlags(fields);
  if (action === 'update' && changes.length === 0) {
    throw usageError(
      'nothing to update: give at least one field flag (--event, --command, --arg, --mode, --required, --priority, --timeout, --matcher, --env) or --unset',
    );
  }
  return changes;
}
