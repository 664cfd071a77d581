// The codex.md §7 edit commands: create, update and delete of handlers in the hooks.json and
// config.toml of the user and project layers, and enable/disable through `[hooks.state."<key>"]
// enabled` of the user config.toml. It picks the file (the NAME's declaration, or --scope and
// --file), refuses what tools may not change, checks the file before and the result after with
// the sources' own checks, writes atomically (io.ts), and says which hooks Codex will no longer
// treat as trusted.
import { join, relative, sep } from 'node:path';
import type { OrderedDeclaration } from '../../../declarations/model.js';
import { displayPath } from '../../../display-path.js';
import { ExitCode, HookctlError, usageError, eventNotInDialectError } from '../../../errors.js';
import { didYouMean } from '../../../matching/suggest.js';
import type { DialectChangeRequest, DialectChangeResult } from '../../types.js';
import { codexEvent } from '../catalog.js';
import type { CodexContext, CodexFileKind, CodexHandlerInfo, CodexSource } from '../model.js';
import { loadCodexSources, projectTrust, type CodexCatalog } from '../sources/load.js';
import { parseTomlText, readProjectTrust } from '../sources/toml-file.js';
import { tomlCreateHandler, tomlDeleteHandler, tomlUpdateHandler } from './config-toml.js';
import { jsonCreateHandler, jsonDeleteHandler, jsonUpdateHandler } from './hooks-json.js';
import { describeDiagnostic, validationFailed } from '../../../edit/edit-target.js';
import { changeFile, checkText, errorsOf, handlerHashes, readTarget, type FileMeta } from './io.js';
import type { CodexAddress, CodexEditOutcome, CodexHandlerChanges } from './model.js';
import { removeStateField, setStateField } from './state.js';

const q = (s: string): string => JSON.stringify(s);

export type CodexScope = 'user' | 'project';
export type CodexFileName = 'hooks.json' | 'config.toml';

export const CODEX_UNSETTABLE = ['timeout', 'async', 'statusMessage', 'additionalContextLimit', 'matcher'] as const;

/** What the edit commands ask of a codex hook, read from their flags. */
export interface CodexEditRequest {
  action: DialectChangeRequest['action'];
  name?: string;
  scope?: CodexScope;
  file?: CodexFileName;
  event?: string;
  matcher?: string;
  /** Handler fields to set, in Codex's spelling. */
  set: Record<string, string | number | boolean>;
  unset: string[];
  dryRun: boolean;
  loc: DialectChangeRequest['loc'];
  env: NodeJS.ProcessEnv;
}

/** The result with the notes every edit prints (codex.md §7). */
export type CodexChangeResult = DialectChangeResult & { notes: string[] };

// ---- flags ----

const asStrings = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : undefined;
const asString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** `--timeout`, `--context-limit`: a whole number ≥ 0 (codex.md §2.1), else a usage error. */
export function wholeNumberFlag(flag: string, text: string): number {
  const t = text.trim();
  if (!/^[0-9]+$/.test(t) || !Number.isSafeInteger(Number(t))) {
    throw usageError(`--${flag} must be a whole number ≥ 0${flag === 'timeout' ? ' of seconds' : ''}, not ${q(text)}`);
  }
  return Number(t);
}

/** Flags of the other dialects that mean nothing for a codex hook. */
const FOREIGN_FLAGS = [
  'url',
  'arg',
  'shell',
  'async-rewake',
  'header',
  'allowed-env-var',
  'if',
  'mode',
  'required',
  'priority',
  'env',
  'secret-env',
  'all-hooks',
];

export function codexScope(scope: string | undefined): CodexScope | undefined {
  switch (scope) {
    case undefined:
      return undefined;
    case 'project':
    case 'workspace':
      return 'project';
    case 'user':
    case 'global':
      return 'user';
    default:
      throw usageError(
        `--scope must be project (alias workspace) or user (alias global) for codex hooks, not ${q(scope)}`,
      );
  }
}

export function codexEditRequest(req: DialectChangeRequest): CodexEditRequest {
  const f = req.flags;
  for (const flag of FOREIGN_FLAGS) {
    const v = f[flag];
    if (v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0)) {
      throw usageError(`--${flag} is not a codex hook field`);
    }
  }
  const matchers = asStrings(f.matcher);
  if (matchers && matchers.length > 1) throw usageError('codex hooks take one --matcher: the raw matcher string');
  const set: Record<string, string | number | boolean> = {};
  if (asString(f.command) !== undefined) set.command = asString(f.command)!;
  if (asString(f.timeout) !== undefined) set.timeout = wholeNumberFlag('timeout', asString(f.timeout)!);
  if (typeof f.async === 'boolean') set.async = f.async;
  if (asString(f['status-message']) !== undefined) set.statusMessage = asString(f['status-message'])!;
  if (asString(f['context-limit']) !== undefined) {
    set.additionalContextLimit = wholeNumberFlag('context-limit', asString(f['context-limit'])!);
  }
  const unset = asStrings(f.unset) ?? [];
  for (const key of unset) {
    if (!(CODEX_UNSETTABLE as readonly string[]).includes(key)) {
      throw usageError(`--unset takes ${CODEX_UNSETTABLE.join(', ')} for codex hooks, not ${q(key)}`);
    }
    if (key !== 'matcher' && key in set) throw usageError(`--unset ${key} and a value for it cannot go together`);
  }
  const file = asString(f.file);
  if (file !== undefined && file !== 'hooks.json' && file !== 'config.toml') {
    throw usageError(`--file must be hooks.json or config.toml, not ${q(file)}`);
  }
  const scope = codexScope(asString(f.scope));
  return {
    action: req.action,
    ...(req.name !== undefined ? { name: req.name } : {}),
    ...(scope !== undefined ? { scope } : {}),
    ...(file !== undefined ? { file: file as CodexFileName } : {}),
    ...(asString(f.event) !== undefined ? { event: asString(f.event) } : {}),
    ...(matchers?.[0] !== undefined ? { matcher: matchers[0] } : {}),
    set,
    unset,
    dryRun: req.dryRun,
    loc: req.loc,
    env: req.env,
  };
}

// ---- the change ----

export async function changeCodexHook(req: CodexEditRequest): Promise<CodexChangeResult> {
  if (req.action === 'create') {
    if (req.name !== undefined) throw usageError(`codex hooks have no names; omit ${q(req.name)}`);
    return createHook(req, await loadCodexSources(req.loc, req.env));
  }
  if (req.name === undefined || req.name.trim() === '') throw usageError(`hooks ${req.action} needs a NAME`);
  const catalog = await loadCodexSources(req.loc, req.env);
  const d = findHook(catalog, req.name.trim());
  const x = d.extra as unknown as CodexHandlerInfo;
  if (req.action === 'enable' || req.action === 'disable') return switchHook(req, catalog, d, x);
  if (req.action === 'update') {
    const nothing = Object.keys(req.set).length === 0 && req.unset.length === 0 && req.matcher === undefined;
    if (nothing) throw usageError('nothing to update: give at least one field flag or --unset');
  }
  return changeNamed(req, catalog, d, x);
}

/** The codex hook of that name, or `hook_not_found` with the closest names. */
export function findHook(catalog: CodexCatalog, name: string): OrderedDeclaration {
  const d = catalog.declarations.find((c) => c.name === name);
  if (d !== undefined) return d;
  const hint = didYouMean(
    name,
    catalog.declarations.flatMap((c) => (c.name === null ? [] : [c.name])),
  );
  throw new HookctlError('hook_not_found', `hook ${q(name)} not found${hint}`, ExitCode.no);
}

export const immutable = (name: string, source: string) =>
  new HookctlError('hook_source_immutable', `hook ${q(name)} source ${q(source)} is immutable by tools`, ExitCode.no);

const EDITABLE: readonly string[] = ['codex_user', 'codex_project'];
const MANAGED: readonly string[] = ['codex_managed', 'codex_system'];
export const isManagedSource = (source: string) => MANAGED.includes(source);

const kindOf = (file: CodexFileName): CodexFileKind => (file === 'hooks.json' ? 'hooks_json' : 'config_toml');

/** The §2.4 origin of a user file, or of a project file in `<folder>/.codex/`. */
function originOf(ctx: CodexContext, scope: CodexScope, folder: string, file: CodexFileName): string {
  if (scope === 'user') return `user/${file}`;
  const rel = relative(ctx.projectRoot, folder).split(sep).join('/');
  return rel === '' ? `project/.codex/${file}` : `project/${rel}/.codex/${file}`;
}

async function createHook(req: CodexEditRequest, catalog: CodexCatalog): Promise<CodexChangeResult> {
  const event = req.event;
  if (event === undefined) throw usageError('hooks create needs --event');
  if (codexEvent(event) === undefined) {
    throw eventNotInDialectError(event, 'codex');
  }
  if (req.set.command === undefined) throw usageError('hooks create needs --command');
  const unsetMatcher = req.unset.includes('matcher');
  if (req.unset.length > 0 && !(unsetMatcher && req.unset.length === 1)) {
    throw usageError('--unset is for hooks update');
  }
  const ctx = catalog.context;
  const scope = req.scope ?? 'project';
  const dir = scope === 'user' ? ctx.codexHome : join(ctx.workspace, '.codex');
  // Default: the file of that layer that already holds hooks; hooks.json when both or neither do [ours].
  const holds = (name: CodexFileName) => catalog.declarations.some((d) => d.location.file === join(dir, name));
  const fileName: CodexFileName =
    req.file ?? (holds('config.toml') && !holds('hooks.json') ? 'config.toml' : 'hooks.json');
  const file = join(dir, fileName);
  const source: CodexSource = scope === 'user' ? 'codex_user' : 'codex_project';
  const meta: FileMeta = {
    file,
    fileKind: kindOf(fileName),
    origin: originOf(ctx, scope, ctx.workspace, fileName),
    source,
  };
  const handler: Record<string, unknown> = { type: 'command', command: req.set.command };
  for (const k of ['timeout', 'async', 'statusMessage', 'additionalContextLimit']) {
    if (req.set[k] !== undefined) handler[k] = req.set[k];
  }
  const result = await editFile(req, meta, scope, (text) =>
    meta.fileKind === 'hooks_json'
      ? jsonCreateHandler(text, event, req.matcher, handler)
      : tomlCreateHandler(text, event, req.matcher, handler),
  );
  result.notes.unshift(
    `${result.name} is not trusted yet; Codex skips it until trusted (hookctl hooks trust ${result.name})`,
  );
  if (scope === 'project') {
    const untrusted = await untrustedProject(ctx);
    if (untrusted !== undefined) result.notes.push(untrusted);
  }
  return result;
}

/**
 * [ours] A note when the workspace's project layer is not trusted (codex.md §1): Codex does not
 * load it, so the new hook never runs there whatever its own trust.
 */
async function untrustedProject(ctx: CodexContext): Promise<string | undefined> {
  const text = await readTarget(ctx.userConfig, 'config_toml').catch(() => undefined);
  const read =
    text === undefined ? undefined : parseTomlText(text.text.replace(/^\uFEFF/, ''), ctx.userConfig, 'codex_user');
  const decision = projectTrust(readProjectTrust(read?.ok ? read.doc : undefined), ctx.workspace, ctx.projectRoot);
  if (decision.trusted) return undefined;
  return `project ${q(decision.path)} is not trusted; Codex does not load its .codex/ layers (set projects.${q(decision.path)}.trust_level = "trusted" in ${displayPath(ctx.userConfig)})`;
}

async function changeNamed(
  req: CodexEditRequest,
  catalog: CodexCatalog,
  d: OrderedDeclaration,
  x: CodexHandlerInfo,
): Promise<CodexChangeResult> {
  const name = d.name!;
  if (!EDITABLE.includes(d.source)) throw immutable(name, d.source);
  const scope: CodexScope = d.source === 'codex_user' ? 'user' : 'project';
  if (req.scope !== undefined && req.scope !== scope) {
    throw new HookctlError('hook_not_found', `hook ${q(name)} not found`, ExitCode.no, {
      details: [`it is in ${displayPath(d.location.file)}: use --scope ${scope}`],
    });
  }
  if (req.file !== undefined && kindOf(req.file) !== x.file_kind) {
    throw usageError(`hook ${q(name)} is in ${displayPath(d.location.file)}, not a ${req.file}`);
  }
  const meta: FileMeta = {
    file: d.location.file,
    fileKind: x.file_kind,
    origin: x.origin,
    source: d.source as CodexSource,
  };
  const a: CodexAddress = { event: d.event, group: x.group_index, handler: x.handler_index };
  const json = x.file_kind === 'hooks_json';
  if (req.action === 'delete') {
    return editFile(req, meta, scope, (text) => (json ? jsonDeleteHandler(text, a) : tomlDeleteHandler(text, a)), name);
  }
  const changes: CodexHandlerChanges = {
    set: req.set,
    unset: req.unset.filter((k) => k !== 'matcher'),
    ...(req.unset.includes('matcher') ? { matcher: null } : req.matcher !== undefined ? { matcher: req.matcher } : {}),
  };
  return editFile(req, meta, scope, (text) =>
    json ? jsonUpdateHandler(text, a, changes) : tomlUpdateHandler(text, a, changes),
  );
}

/**
 * One create/update/delete on one file: the file must check clean before, and the result after;
 * the notes name every hook whose key now holds a different hash (codex.md §7).
 */
async function editFile(
  req: CodexEditRequest,
  meta: FileMeta,
  scope: CodexScope,
  compute: (text: string) => CodexEditOutcome,
  deletedName?: string,
): Promise<CodexChangeResult> {
  let outcome: CodexEditOutcome | undefined;
  const done = await changeFile(meta.file, meta.fileKind, req, (current) => {
    const before = checkText(current.text, meta);
    const errorsBefore = errorsOf(before.diagnostics);
    if (errorsBefore.length > 0) throw validationFailed(errorsBefore);
    outcome = compute(current.text);
    const after = checkText(outcome.text, meta);
    const errors = errorsOf(after.diagnostics);
    if (errors.length > 0) throw validationFailed(errors);
    return outcome.text;
  });
  const checkedBefore = checkText(done.before, meta);
  const checkedAfter = checkText(done.after, meta);
  // New warnings of the result (a clamped timeout, an ignored context limit), for stderr.
  const seen = new Set(checkedBefore.diagnostics.map((d) => `${d.code}:${d.message}`));
  const warnings = checkedAfter.diagnostics
    .filter((d) => d.severity === 'warning' && !seen.has(`${d.code}:${d.message}`))
    .map(describeDiagnostic);
  const toml = meta.fileKind !== 'hooks_json';
  const before = handlerHashes(checkedBefore.checked, toml);
  const after = handlerHashes(checkedAfter.checked, toml);
  const label = codexEvent(outcome!.address.event)!.label;
  const placed = `${label}:${outcome!.address.group}:${outcome!.address.handler}`;
  const name = deletedName ?? after.get(placed)?.name ?? '';
  const shifted: string[] = [];
  for (const [key, h] of after) {
    if (req.action === 'create' && key === placed) continue;
    if (before.get(key)?.hash !== h.hash) shifted.push(h.name);
  }
  const notes =
    shifted.length > 0 ? [`Codex will treat ${shifted.join(', ')} as untrusted or modified until trusted again`] : [];
  const target = {
    dialect: 'codex',
    file: meta.file,
    changed: done.changed,
    ...(done.created ? { created: true } : {}),
    ...(done.diff !== undefined ? { diff: done.diff } : {}),
  };
  return {
    action: req.action,
    name,
    scope,
    file: meta.file,
    changed: done.changed,
    dry_run: req.dryRun,
    ...(req.dryRun ? { diff: done.diff ?? '' } : {}),
    targets: [target],
    warnings,
    notes: done.changed ? notes : [],
  };
}

// ---- enable / disable ----

/** The user config.toml's meta: state is read only there (codex.md §2.6). */
export function userConfigMeta(ctx: CodexContext): FileMeta {
  return { file: ctx.userConfig, fileKind: 'config_toml', origin: 'user/config.toml', source: 'codex_user' };
}

/** A state write must leave the user config.toml as loadable as it was. */
/**
 * A user config.toml that does not parse is refused before any edit is tried (codex.md §7:
 * `hook_validation_failed`, with the parser's line), not as the TOML editor's generic failure.
 */
export function refuseUnparsedState(meta: FileMeta, before: string): void {
  const was = checkText(before, meta).diagnostics;
  if (was.some((d) => d.code === 'toml_parse_error')) throw validationFailed(errorsOf(was));
}

export function checkStateWrite(meta: FileMeta, before: string, after: string): void {
  const was = checkText(before, meta).diagnostics;
  if (was.some((d) => d.code === 'toml_parse_error')) throw validationFailed(errorsOf(was));
  const seen = new Set(errorsOf(was).map((d) => `${d.code}:${d.message}`));
  const added = errorsOf(checkText(after, meta).diagnostics).filter((d) => !seen.has(`${d.code}:${d.message}`));
  if (added.length > 0) throw validationFailed(added);
}

async function switchHook(
  req: CodexEditRequest,
  catalog: CodexCatalog,
  d: OrderedDeclaration,
  x: CodexHandlerInfo,
): Promise<CodexChangeResult> {
  const name = d.name!;
  if (isManagedSource(d.source)) throw immutable(name, d.source);
  const meta = userConfigMeta(catalog.context);
  const done = await changeFile(meta.file, meta.fileKind, req, (current) => {
    refuseUnparsedState(meta, current.text);
    const after =
      req.action === 'disable'
        ? setStateField(current.text, x.key, 'enabled', false)
        : removeStateField(current.text, x.key, 'enabled');
    checkStateWrite(meta, current.text, after);
    return after;
  });
  return {
    action: req.action,
    name,
    scope: 'user',
    file: meta.file,
    changed: done.changed,
    dry_run: req.dryRun,
    ...(req.dryRun ? { diff: done.diff ?? '' } : {}),
    targets: [
      {
        dialect: 'codex',
        file: meta.file,
        changed: done.changed,
        ...(done.created ? { created: true } : {}),
        ...(done.diff !== undefined ? { diff: done.diff } : {}),
      },
    ],
    warnings: [],
    notes: [],
  };
}
