// The §7 edit commands on claude settings files: the thin I/O around settings-edit.ts. It picks
// the file (the NAME's origin, or --scope), refuses what tools may not change (managed, plugin,
// skill and agent hooks), validates the file before and the result after, and writes atomically
// under the file's lock — or, with --dry-run, only computes the unified diff.
import { mkdir, readdir, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { looksLikeSecretValue, isSecretLikeName } from '../../../declarations/secrets.js';
import { faultInjection, removeStrayTempFiles, writeFailures, writeFileAtomic } from '../../../edit/atomic-write.js';
import { describeDiagnostic, readEditTarget, validationFailed, type TargetText } from '../../../edit/edit-target.js';
import { withFileLock } from '../../../edit/file-lock.js';

import { unifiedDiff } from '../../../edit/unified-diff.js';
import { ExitCode, HookctlError, usageError, eventNotInDialectError } from '../../../errors.js';
import { didYouMean } from '../../../matching/suggest.js';
import type { Locations } from '../../../paths.js';
import type { EditAction } from '../../types.js';
import { displayPath } from '../../../display-path.js';
import { claudeEvent } from '../catalog.js';
import { headerEnvRefs } from '../sources/handlers.js';
import { JsonEditError } from '../../../edit/json-edit.js';
import { loadClaudeSources } from '../sources/load.js';
import {
  claudeLocations,
  localSettingsFiles,
  managedDropInDir,
  managedSettingsFile,
  projectSettingsFile,
  userSettingsFile,
  type ClaudeLocations,
} from '../locations.js';
import type { ClaudeSource } from '../model.js';
import { parseSettingsText, readSettingsFile } from '../sources/settings.js';
import {
  createHandler,
  deleteHandler,
  parseHookName,
  setDisableAllHooks,
  updateHandler,
  type HandlerAddress,
  type HandlerChanges,
} from './settings-edit.js';

export type ClaudeScope = 'project' | 'local' | 'user';
export type ClaudeEditAction = EditAction;

/** `--scope` values, with the other dialects' names as aliases. */
export function claudeScope(scope: string | undefined): ClaudeScope {
  switch (scope ?? 'project') {
    case 'project':
    case 'workspace':
      return 'project';
    case 'user':
    case 'global':
      return 'user';
    case 'local':
      return 'local';
    default:
      throw usageError(
        `--scope must be project (alias workspace), local or user (alias global), not ${JSON.stringify(scope)}`,
      );
  }
}

/** The handler fields `create` and `update` take (claude.md §7). */
export interface ClaudeHandlerFields {
  command?: string;
  url?: string;
  args?: string[];
  shell?: string;
  async?: boolean;
  asyncRewake?: boolean;
  headers?: Record<string, string>;
  allowedEnvVars?: string[];
  if?: string;
  /** Seconds, > 0. */
  timeout?: number;
  statusMessage?: string;
}

export const UNSETTABLE = [
  'if',
  'timeout',
  'statusMessage',
  'args',
  'shell',
  'async',
  'asyncRewake',
  'allowedEnvVars',
  'matcher',
];

export interface ClaudeEditRequest {
  action: ClaudeEditAction;
  /** update/delete/enable/disable: the §2.2 name; create takes none. */
  name?: string;
  /** As given; undefined when not given. */
  scope?: string;
  event?: string;
  matcher?: string;
  fields?: ClaudeHandlerFields;
  unset?: string[];
  /** enable/disable --all-hooks. */
  allHooks?: boolean;
  dryRun: boolean;
  loc: Pick<Locations, 'workspace'> & Partial<Pick<Locations, 'pluginDirs' | 'stateDir'>>;
  env: NodeJS.ProcessEnv;
}

export interface ClaudeFileChange {
  dialect: 'claude';
  file: string;
  changed: boolean;
  created?: boolean;
  diff?: string;
}

/** Shaped as the other dialects' change results. */
export interface ClaudeChangeResult {
  action: ClaudeEditAction;
  /** The hook's name after the change (create: the new name); `disableAllHooks` for --all-hooks. */
  name: string;
  scope: ClaudeScope | null;
  file: string;
  changed: boolean;
  dry_run: boolean;
  diff?: string;
  targets: ClaudeFileChange[];
  warnings: string[];
  /** One line for a person when the shared wording does not fit (`--all-hooks`). */
  summary?: string;
}

const q = (s: string): string => JSON.stringify(s);

const notFound = (name: string, details: string[] = []) =>
  new HookctlError('hook_not_found', `hook ${q(name)} not found`, ExitCode.no, { details });

function scopeFile(cl: ClaudeLocations, scope: ClaudeScope): { file: string; origin: string; source: ClaudeSource } {
  if (scope === 'user') return { file: userSettingsFile(cl), origin: 'user', source: 'claude_user' };
  if (scope === 'project') return { file: projectSettingsFile(cl), origin: 'project', source: 'claude_project' };
  return { file: localSettingsFiles(cl)[0]!.file, origin: 'local', source: 'claude_local' };
}

/** The file an editable origin lives in, or undefined for an origin tools may not change. */
function originFile(
  cl: ClaudeLocations,
  origin: string,
): { file: string; scope: ClaudeScope; source: ClaudeSource } | undefined {
  if (origin === 'user') return { file: userSettingsFile(cl), scope: 'user', source: 'claude_user' };
  if (origin === 'project') return { file: projectSettingsFile(cl), scope: 'project', source: 'claude_project' };
  const locals = localSettingsFiles(cl);
  const local = locals.find((l) => l.origin === origin);
  return local ? { file: local.file, scope: 'local', source: 'claude_local' } : undefined;
}

export async function changeClaudeHook(req: ClaudeEditRequest): Promise<ClaudeChangeResult> {
  const cl = claudeLocations(req.loc, req.env);
  if ((req.action === 'enable' || req.action === 'disable') && !req.allHooks) {
    throw new HookctlError(
      'claude_no_hook_switch',
      'claude hooks have no on/off switch; use hooks delete, or hooks disable --all-hooks',
      ExitCode.no,
    );
  }
  if (req.allHooks) return changeAllHooks(req, cl);
  if (req.action === 'create') return createHook(req, cl);
  try {
    return await changeNamedHook(req, cl);
  } catch (err) {
    throw await withNameHint(err, req);
  }
}

/** A `hook_not_found` of a name found nowhere gets the closest names of the hooks there are. */
async function withNameHint(err: unknown, req: ClaudeEditRequest): Promise<unknown> {
  if (!(err instanceof HookctlError) || err.code !== 'hook_not_found' || err.details.length > 0) return err;
  const name = (req.name ?? '').trim();
  const catalog = await loadClaudeSources(req.loc, req.env);
  const hint = didYouMean(
    name,
    catalog.declarations.flatMap((d) => (d.name === null ? [] : [d.name])),
  );
  return hint === '' ? err : new HookctlError(err.code, err.message + hint, err.exit, { data: err.data });
}

// ---- create ----

function handlerFromFields(f: ClaudeHandlerFields): Record<string, unknown> {
  const h: Record<string, unknown> = {};
  if (f.command !== undefined) Object.assign(h, { type: 'command', command: f.command });
  else if (f.url !== undefined) Object.assign(h, { type: 'http', url: f.url });
  const keys: (keyof ClaudeHandlerFields)[] = [
    'args',
    'shell',
    'async',
    'asyncRewake',
    'headers',
    'allowedEnvVars',
    'if',
    'timeout',
    'statusMessage',
  ];
  for (const k of keys) if (f[k] !== undefined) h[k] = f[k];
  return h;
}

/** SPEC §6.1's test on a header: a literal secret instead of a `$VAR` reference. */
export function headerHasLiteralSecret(name: string, value: string): boolean {
  const literal = value.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*/g, ' ').trim();
  if (literal === '') return false;
  if (headerEnvRefs(value).length === 0 && isSecretLikeName(name)) return true;
  return literal.split(/\s+/).some((word) => looksLikeSecretValue(word)) || looksLikeSecretValue(literal);
}

function refuseSecrets(fields: ClaudeHandlerFields | undefined): void {
  for (const [k, v] of Object.entries(fields?.headers ?? {})) {
    if (headerHasLiteralSecret(k, v)) {
      throw new HookctlError(
        'hook_secret_input_forbidden',
        'hook executor env contains a forbidden secret-bearing input',
        ExitCode.no,
      );
    }
  }
}

async function createHook(req: ClaudeEditRequest, cl: ClaudeLocations): Promise<ClaudeChangeResult> {
  if (req.name !== undefined) throw usageError(`claude hooks have no names; omit ${q(req.name)}`);
  const event = req.event;
  if (event === undefined) throw usageError('hooks create needs --event');
  if (claudeEvent(event) === undefined) {
    throw eventNotInDialectError(event, 'claude');
  }
  const fields = req.fields ?? {};
  if ((fields.command === undefined) === (fields.url === undefined)) {
    throw usageError('hooks create needs --command or --url (one of them)');
  }
  refuseSecrets(fields);
  const scope = claudeScope(req.scope);
  const target = scopeFile(cl, scope);
  const handler = handlerFromFields(fields);
  return writeChange(req, target.file, scope, target.source, target.origin, (text) => {
    const out = createHandler(text, event, req.matcher, handler);
    if (!out.ok) {
      throw new HookctlError(
        'hook_already_exists',
        `an identical hook already exists: ${target.origin}:${event}:${out.message}`,
        ExitCode.no,
      );
    }
    return out;
  });
}

// ---- update / delete ----

async function changeNamedHook(req: ClaudeEditRequest, cl: ClaudeLocations): Promise<ClaudeChangeResult> {
  const name = (req.name ?? '').trim();
  const parsed = parseHookName(name);
  if (parsed === undefined) throw notFound(name);
  const owner = originFile(cl, parsed.origin);
  if (owner === undefined) {
    const catalog = await loadClaudeSources(req.loc, req.env);
    const found = catalog.declarations.find((d) => d.name === name);
    if (found) {
      throw new HookctlError(
        'hook_source_immutable',
        `hook ${q(name)} source ${q(found.source)} is immutable by tools`,
        ExitCode.no,
      );
    }
    throw notFound(name);
  }
  if (req.scope !== undefined && claudeScope(req.scope) !== owner.scope) {
    throw notFound(name, [`it is in ${displayPath(owner.file)}: use --scope ${owner.scope}`]);
  }
  refuseSecrets(req.fields);
  const address: HandlerAddress = { event: parsed.event, group: parsed.group, index: parsed.index };
  const changes = req.action === 'update' ? changesFrom(req) : undefined;
  if (changes && Object.keys(changes.set).length === 0 && changes.unset.length === 0 && changes.matcher === undefined) {
    throw usageError('nothing to update: give at least one field flag or --unset');
  }
  return writeChange(req, owner.file, owner.scope, owner.source, parsed.origin, (text) => {
    const out = changes ? updateHandler(text, address, changes) : deleteHandler(text, address);
    if (!out.ok) throw notFound(name);
    return out;
  });
}

function changesFrom(req: ClaudeEditRequest): HandlerChanges {
  const f = req.fields ?? {};
  const set: Record<string, unknown> = {};
  if (f.command !== undefined) set.command = f.command;
  if (f.url !== undefined) set.url = f.url;
  for (const k of [
    'args',
    'shell',
    'async',
    'asyncRewake',
    'allowedEnvVars',
    'if',
    'timeout',
    'statusMessage',
  ] as const) {
    if (f[k] !== undefined) set[k] = f[k];
  }
  for (const [k, v] of Object.entries(f.headers ?? {})) set[`headers.${k}`] = v;
  const unset: string[] = [];
  let matcher: string | null | undefined = req.matcher;
  for (const key of req.unset ?? []) {
    if (key === 'matcher') matcher = null;
    else if (UNSETTABLE.includes(key) || /^headers\..+/.test(key)) unset.push(key);
    else throw usageError(`--unset takes ${UNSETTABLE.slice(0, -1).join(', ')}, headers.<H> or matcher, not ${q(key)}`);
  }
  return { set, unset, ...(matcher !== undefined ? { matcher } : {}) };
}

// ---- --all-hooks ----

async function changeAllHooks(req: ClaudeEditRequest, cl: ClaudeLocations): Promise<ClaudeChangeResult> {
  const scope = claudeScope(req.scope);
  const target = scopeFile(cl, scope);
  const on = req.action === 'disable';
  const result = await writeChange(req, target.file, scope, target.source, target.origin, (text) => ({
    ok: true,
    text: setDisableAllHooks(text, on),
  }));
  result.name = 'disableAllHooks';
  const shown = displayPath(target.file);
  result.summary = !result.changed
    ? `${on ? '"disableAllHooks" is already true' : 'no "disableAllHooks" is set'} in ${shown}: no change`
    : on
      ? `set "disableAllHooks": true in ${shown}: only managed hooks and force-enabled plugins' hooks run`
      : `removed "disableAllHooks" from ${shown}`;
  if (!on) {
    const still = await stillDisabledBy(cl, target.file);
    if (still !== undefined) result.warnings.push(`disableAllHooks is still true in ${displayPath(still)}`);
  } else {
    // [ours] claude.md §7 names only enable's warning; a disable that a higher false outranks is as silent a no-op.
    const over = await enabledAbove(cl, target.file);
    if (over !== undefined) {
      if (result.changed) result.summary = `set "disableAllHooks": true in ${shown}`;
      result.warnings.push(
        `disableAllHooks is false in ${displayPath(over)}, which outranks ${shown}: hooks still run`,
      );
    }
  }
  return result;
}

/** Every settings file's `disableAllHooks`, highest precedence first (claude.md §2.4). */
async function disableAllHooksValues(cl: ClaudeLocations): Promise<{ file: string; value: boolean | undefined }[]> {
  const dropIns = await readdir(managedDropInDir(cl)).catch(() => [] as string[]);
  const managed = [
    managedSettingsFile(cl),
    ...dropIns
      .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
      .sort()
      .map((n) => `${managedDropInDir(cl)}/${n}`),
  ].reverse();
  // Highest first: the last managed file that sets it, then local, project, user.
  const order = [
    ...managed,
    ...localSettingsFiles(cl).map((l) => l.file),
    projectSettingsFile(cl),
    userSettingsFile(cl),
  ];
  return Promise.all(
    order.map(async (file) => {
      const f = await readSettingsFile(file, { source: 'claude_user', origin: 'x', managed: managed.includes(file) });
      const v = f?.usable ? f.values.disableAllHooks : undefined;
      return { file, value: typeof v === 'boolean' ? v : undefined };
    }),
  );
}

/** The file that still turns hooks off once `except` no longer sets disableAllHooks. */
async function stillDisabledBy(cl: ClaudeLocations, except: string): Promise<string | undefined> {
  const winner = (await disableAllHooksValues(cl)).find((v) => v.file !== except && v.value !== undefined);
  return winner?.value ? winner.file : undefined;
}

/** A file above `target` whose `false` wins over the `true` just written there. */
async function enabledAbove(cl: ClaudeLocations, target: string): Promise<string | undefined> {
  const values = await disableAllHooksValues(cl);
  const above = values.slice(
    0,
    Math.max(
      0,
      values.findIndex((v) => v.file === target),
    ),
  );
  const winner = above.find((v) => v.value !== undefined);
  return winner?.value === false ? winner.file : undefined;
}

// ---- reading, checking, writing ----

type Compute = (text: string) => { ok: true; text: string; address?: HandlerAddress };

async function writeChange(
  req: ClaudeEditRequest,
  file: string,
  scope: ClaudeScope,
  source: ClaudeSource,
  origin: string,
  compute: Compute,
): Promise<ClaudeChangeResult> {
  const opts = { source, origin, managed: false };
  const run = (current: TargetText) => {
    const check = (text: string) =>
      text.trim() === '' ? [] : parseSettingsText(text.replace(/^\uFEFF/, ''), file, opts).diagnostics;
    const before = check(current.text);
    const errorsBefore = before.filter((d) => d.severity === 'error');
    if (errorsBefore.length > 0) throw validationFailed(errorsBefore);
    let out;
    try {
      out = compute(current.text);
    } catch (err) {
      if (err instanceof JsonEditError)
        throw new HookctlError('hook_edit_failed', `cannot edit ${displayPath(file)}: ${err.message}`, ExitCode.no);
      throw err;
    }
    const after = check(out.text);
    const errors = after.filter((d) => d.severity === 'error');
    if (errors.length > 0) throw validationFailed(errors);
    const seen = new Set(before.map((d) => d.message));
    const warnings = after.filter((d) => !seen.has(d.message)).map(describeDiagnostic);
    const changed = out.text !== current.text;
    const change: ClaudeFileChange = { dialect: 'claude', file, changed };
    if (changed && !current.exists) change.created = true;
    if (req.dryRun) {
      const shown = displayPath(file);
      change.diff = unifiedDiff(current.text, out.text, {
        oldLabel: current.exists ? shown : '/dev/null',
        newLabel: shown,
      });
    }
    const name = out.address ? `${origin}:${out.address.event}:${out.address.group}.${out.address.index}` : '';
    return { change, warnings, text: out.text, name };
  };

  let done: ReturnType<typeof run>;
  if (req.dryRun) done = run(await readEditTarget(file, { json: true }));
  else {
    const realFile = await realpath(file).catch(() => file);
    done = await writeFailures(file, async () => {
      await mkdir(dirname(realFile), { recursive: true });
      return withFileLock(realFile, async () => {
        await removeStrayTempFiles(realFile);
        // Read again under the lock: another writer may have changed the file meanwhile.
        const current = await readEditTarget(file, { json: true });
        const out = run(current);
        if (out.change.changed) {
          await writeFileAtomic(current.realFile, out.text, {
            expectedHash: current.hash,
            beforeRename: faultInjection(req.env),
          });
        }
        return out;
      });
    });
  }
  return {
    action: req.action,
    name: done.name || (req.name ?? ''),
    scope,
    file,
    changed: done.change.changed,
    dry_run: req.dryRun,
    ...(req.dryRun ? { diff: done.change.diff ?? '' } : {}),
    targets: [done.change],
    warnings: done.warnings,
  };
}

// ---- from the command's flags ----

const asStrings = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : undefined;
const asString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const asBool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

/** `--timeout SECONDS`: a positive number, else a usage error (claude.md §7). */
export function timeoutSeconds(text: string): number {
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw usageError(`--timeout must be a positive number of seconds, not ${q(text)}`);
  }
  return n;
}

/** The edit request of a command run: the claude flags of claude.md §7, checked as usage. */
export function claudeEditRequest(req: {
  action: ClaudeEditAction;
  name?: string;
  flags: Record<string, unknown>;
  dryRun: boolean;
  loc: Locations;
  env: NodeJS.ProcessEnv;
}): ClaudeEditRequest {
  const f = req.flags;
  const matchers = asStrings(f.matcher);
  if (matchers && matchers.length > 1) throw usageError('claude hooks take one --matcher: the raw matcher string');
  const headers: Record<string, string> = {};
  for (const h of asStrings(f.header) ?? []) {
    const eq = h.indexOf('=');
    if (eq <= 0) throw usageError(`--header must be NAME=VALUE, not ${q(h)}`);
    headers[h.slice(0, eq)] = h.slice(eq + 1);
  }
  const timeout = asString(f.timeout);
  const fields: ClaudeHandlerFields = {
    ...(asString(f.command) !== undefined ? { command: asString(f.command) } : {}),
    ...(asString(f.url) !== undefined ? { url: asString(f.url) } : {}),
    ...(asStrings(f.arg) ? { args: asStrings(f.arg) } : {}),
    ...(asString(f.shell) !== undefined ? { shell: asString(f.shell) } : {}),
    ...(asBool(f.async) !== undefined ? { async: asBool(f.async) } : {}),
    ...(asBool(f['async-rewake']) !== undefined ? { asyncRewake: asBool(f['async-rewake']) } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(asStrings(f['allowed-env-var']) ? { allowedEnvVars: asStrings(f['allowed-env-var']) } : {}),
    ...(asString(f.if) !== undefined ? { if: asString(f.if) } : {}),
    ...(timeout !== undefined ? { timeout: timeoutSeconds(timeout) } : {}),
    ...(asString(f['status-message']) !== undefined ? { statusMessage: asString(f['status-message']) } : {}),
  };
  return {
    action: req.action,
    ...(req.name !== undefined ? { name: req.name } : {}),
    ...(asString(f.scope) !== undefined ? { scope: asString(f.scope) } : {}),
    ...(asString(f.event) !== undefined ? { event: asString(f.event) } : {}),
    ...(matchers?.[0] !== undefined ? { matcher: matchers[0] } : {}),
    fields,
    unset: asStrings(f.unset) ?? [],
    allHooks: asBool(f['all-hooks']) === true,
    dryRun: req.dryRun,
    loc: req.loc,
    env: req.env,
  };
}
