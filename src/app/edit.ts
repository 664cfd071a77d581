// Running one change of SPEC §6.1 against the files: pick the target, refuse what may not change
// (names owned by other sources, a target that already has errors), compute the edit
// (declaration-edit.ts), validate the whole resulting file, then write it atomically under the
// file's lock — or, with --dry-run, only show the diff.
//
// Concurrency: every writer holds `<file>.lock` (file-lock.ts) from reading the file to renaming
// the new one, so parallel changes take turns and each sees the others' results. As a second
// guard against writers that do not take the lock (an editor), the file's hash is compared just
// before the rename: a mismatch writes nothing (`hook_config_changed`).
import { mkdir, readFile, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { loadCatalog } from './catalog.js';
import { readCoshStates, setCoshHookDisabled } from '../dialects/cosh/states.js';
import type { Diagnostic } from '../declarations/diagnostics.js';
import type { Dialect } from '../declarations/model.js';
import { decodeSourceBytes } from '../declarations/source-file.js';
import { ExitCode, HookctlError, usageError } from '../errors.js';
import { compozyGlobalConfig, compozyWorkspaceConfig, coshStatesFile, type Locations } from '../paths.js';
import { displayPath } from '../views/location.js';
import { removeStrayTempFiles, sha256, writeFileAtomic } from '../edit/atomic-write.js';
import {
  declarationNamesOf,
  editConfigText,
  type EditAction,
  type EditRequest,
  type FieldChange,
} from '../dialects/compozy/edit/declaration-edit.js';
import { withFileLock } from '../edit/file-lock.js';
import { unifiedDiff } from '../edit/unified-diff.js';
import { validateConfigText } from '../dialects/compozy/edit/validate-text.js';

export type Scope = 'workspace' | 'global';

export interface ChangeRequest {
  action: EditAction;
  name: string;
  scope: Scope;
  /** create/update: the fields to set or remove. */
  changes?: FieldChange[];
  dryRun: boolean;
  loc: Locations;
  env: NodeJS.ProcessEnv;
}

/** What happened to one file. */
export interface FileChange {
  dialect: Dialect;
  file: string;
  changed: boolean;
  /** The file did not exist before (create). */
  created?: boolean;
  /** --dry-run only: the unified diff ('' when nothing would change). */
  diff?: string;
}

export interface ChangeResult {
  action: EditAction;
  name: string;
  /** The compozy target's scope; null when only cosh states changed. */
  scope: Scope | null;
  /** The first file below. */
  file: string;
  changed: boolean;
  dry_run: boolean;
  /** --dry-run only: the diffs of every file. */
  diff?: string;
  targets: FileChange[];
  /** For stderr: new validation warnings, overlay notes. */
  warnings: string[];
}

const q = (s: string): string => JSON.stringify(s);

export function configFileOf(loc: Locations, scope: Scope): string {
  return scope === 'global' ? compozyGlobalConfig(loc) : compozyWorkspaceConfig(loc);
}

export async function changeDeclaration(req: ChangeRequest): Promise<ChangeResult> {
  const name = req.name.trim();
  if (name === '') throw usageError('the hook name must not be empty');
  const toggle = req.action === 'enable' || req.action === 'disable';
  const otherScope: Scope = req.scope === 'global' ? 'workspace' : 'global';
  const file = configFileOf(req.loc, req.scope);
  const otherFile = configFileOf(req.loc, otherScope);
  const [catalog, target, other] = await Promise.all([
    loadCatalog(req.loc, { dialect: toggle ? undefined : 'compozy', env: req.env }),
    readTarget(file, req),
    readTarget(otherFile, { ...req, scope: otherScope }),
  ]);
  const owners = catalog.declarations.filter((d) => d.name === name);
  let cosh = toggle && owners.some((d) => d.dialect === 'cosh');
  // enable also cleans up a name left in the states file by a cosh hook that is gone.
  if (toggle && !cosh && req.action === 'enable') {
    cosh = (await readCoshStates(coshStatesFile(req.loc))).disabled.includes(name);
  }
  const plan = planTargets(req.action, name, {
    scope: req.scope,
    otherFile: displayPath(otherFile),
    inTarget: target.names.includes(name) || target.unreadable,
    inOther: other.names.includes(name),
    foreignSource: owners.find((d) => d.dialect === 'compozy' && d.source !== 'config')?.source,
    cosh,
  });

  const targets: FileChange[] = [];
  const warnings = [...plan.warnings];
  if (plan.compozy) {
    const result = await changeCompozyFile(req, file, name);
    targets.push(result.change);
    warnings.push(...result.warnings);
  }
  if (plan.cosh) targets.push(await changeCoshStates(req, name, req.action === 'disable'));

  const result: ChangeResult = {
    action: req.action,
    name,
    scope: plan.compozy ? req.scope : null,
    file: targets[0]!.file,
    changed: targets.some((t) => t.changed),
    dry_run: req.dryRun,
    targets,
    warnings,
  };
  if (req.dryRun) result.diff = targets.map((t) => t.diff ?? '').join('');
  return result;
}

export interface OwnershipFacts {
  scope: Scope;
  /** The other config file, as shown to the user. */
  otherFile: string;
  /** The target config file declares the name (or cannot be read, so it may). */
  inTarget: boolean;
  /** The other config file (the overlay's other half) declares the name. */
  inOther: boolean;
  /** The source of a compozy declaration of that name outside both config files. */
  foreignSource?: string;
  /** A cosh hook has the name (only enable/disable look at it). */
  cosh: boolean;
}

/**
 * Which files a change touches, by the ownership rules of SPEC §6.1, or the refusal. Only config
 * declarations change (and cosh hooks, for enable/disable); a name owned only by another source
 * is immutable; a workspace create may reuse a name only the global file has.
 */
export function planTargets(
  action: EditAction,
  name: string,
  facts: OwnershipFacts,
): { compozy: boolean; cosh: boolean; warnings: string[] } {
  const otherScope = facts.scope === 'global' ? 'workspace' : 'global';
  const cosh = (action === 'enable' || action === 'disable') && facts.cosh;
  const warnings: string[] = [];
  if (action === 'create') {
    if (!facts.inTarget && !facts.inOther && facts.foreignSource) throw immutable(name, facts.foreignSource);
    if (facts.scope === 'global' && facts.inOther) {
      warnings.push(
        `the workspace config ${facts.otherFile} also declares hook ${q(name)}: there it replaces this one`,
      );
    }
    return { compozy: true, cosh: false, warnings };
  }
  if (facts.inTarget) return { compozy: true, cosh, warnings };
  if (cosh) {
    if (facts.inOther) {
      warnings.push(
        `a compozy hook ${q(name)} is declared in ${facts.otherFile}: use --scope ${otherScope} to ${action} it too`,
      );
    }
    return { compozy: false, cosh: true, warnings };
  }
  if (facts.foreignSource && !facts.inOther) throw immutable(name, facts.foreignSource);
  const details = facts.inOther ? [`it is declared in ${facts.otherFile}: use --scope ${otherScope}`] : [];
  throw new HookctlError('hook_not_found', `hook ${q(name)} not found in target config overlay`, ExitCode.no, {
    details,
  });
}

function immutable(name: string, source: string): HookctlError {
  return new HookctlError(
    'hook_source_immutable',
    `hook ${q(name)} source ${q(source)} is immutable by tools`,
    ExitCode.no,
  );
}

// ---- the compozy config file ----

interface TargetText {
  file: string;
  /** Where writes go: the file a symbolic link points to, so the link stays a link. */
  realFile: string;
  exists: boolean;
  /** The text as read (a BOM kept); '' for a missing file. */
  text: string;
  hash: string | null;
  /** Errors the file already has: no change is made to it. */
  errors: Diagnostic[];
  /** Names of its declarations (none when it does not parse). */
  names: string[];
  /** It exists but could not be parsed or decoded: whatever the change, it is refused. */
  unreadable: boolean;
}

async function readTarget(file: string, req: Pick<ChangeRequest, 'loc' | 'scope'>): Promise<TargetText> {
  const realFile = await realpath(file).catch(() => file);
  let bytes: Buffer;
  try {
    bytes = await readFile(realFile);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return { file, realFile, exists: false, text: '', hash: null, errors: [], names: [], unreadable: false };
    }
    throw new HookctlError(
      'hook_config_unreadable',
      `cannot read ${displayPath(file)}: ${code ?? (err as Error).message}`,
      ExitCode.no,
    );
  }
  const decoded = decodeSourceBytes(bytes, file, 'config');
  const hash = sha256(bytes);
  if (decoded.kind !== 'text') {
    const errors = decoded.kind === 'bad' ? [decoded.diagnostic] : [];
    return { file, realFile, exists: true, text: '', hash, errors, names: [], unreadable: true };
  }
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? '\uFEFF' : '';
  const text = bom + decoded.text;
  const errors = validateConfigText(text, file, { cwd: req.loc.workspace, global: req.scope === 'global' }).filter(
    (d) => d.severity === 'error',
  );
  const names = declarationNamesOf(text);
  const unreadable = errors.some((d) => d.code === 'toml_parse_error' || d.code === 'invalid_section');
  return { file, realFile, exists: true, text, hash, errors, names, unreadable };
}

async function changeCompozyFile(
  req: ChangeRequest,
  file: string,
  name: string,
): Promise<{ change: FileChange; warnings: string[] }> {
  if (req.dryRun) return computeCompozyChange(req, await readTarget(file, req), name);
  const realFile = await realpath(file).catch(() => file);
  return writeFailures(file, async () => {
    if (req.action === 'create') await mkdir(dirname(realFile), { recursive: true });
    return withFileLock(realFile, async () => {
      await removeStrayTempFiles(realFile);
      // Read again under the lock: another writer may have changed the file meanwhile.
      const current = await readTarget(file, req);
      const out = computeCompozyChange(req, current, name);
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

/** File system errors while locking or writing become one clear line (`hook_write_failed`). */
async function writeFailures<T>(file: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (err instanceof HookctlError || typeof code !== 'string') throw err;
    const where = (err as NodeJS.ErrnoException).path ?? file;
    throw new HookctlError(
      'hook_write_failed',
      `cannot write ${displayPath(file)}: ${code} (${displayPath(where)}); nothing was changed`,
      ExitCode.no,
    );
  }
}

function computeCompozyChange(
  req: ChangeRequest,
  current: TargetText,
  name: string,
): { change: FileChange; warnings: string[]; text: string } {
  const shown = displayPath(current.file);
  if (current.errors.length > 0) {
    throw new HookctlError(
      'hook_config_invalid',
      `${shown} already has declaration errors; fix them before changing it (see: hookctl hooks validate)`,
      ExitCode.no,
      { details: current.errors.map(describe), data: { diagnostics: current.errors } },
    );
  }
  const request = toEditRequest(req, name);
  const outcome = editConfigText(current.text, request);
  if (!outcome.ok) throw new HookctlError(outcome.code, outcome.message, ExitCode.no);
  const warnings: string[] = [];
  if (outcome.changed) {
    const opts = { cwd: req.loc.workspace, global: req.scope === 'global' };
    const diagnostics = validateConfigText(outcome.text, current.file, opts);
    const errors = diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0) {
      throw new HookctlError('hook_validation_failed', 'hook declaration validation failed', ExitCode.no, {
        details: errors.map(describe),
        data: { diagnostics: errors },
      });
    }
    const before = new Set(validateConfigText(current.text, current.file, opts).map((d) => d.message));
    for (const d of diagnostics) if (!before.has(d.message)) warnings.push(describe(d));
  }
  const change: FileChange = { dialect: 'compozy', file: current.file, changed: outcome.changed };
  if (!current.exists && outcome.changed) change.created = true;
  if (req.dryRun) {
    change.diff = unifiedDiff(current.text, outcome.text, {
      oldLabel: current.exists ? shown : '/dev/null',
      newLabel: shown,
    });
  }
  return { change, warnings, text: outcome.text };
}

function toEditRequest(req: ChangeRequest, name: string): EditRequest {
  if (req.action === 'create' || req.action === 'update')
    return { action: req.action, name, changes: req.changes ?? [] };
  return { action: req.action, name };
}

function describe(d: Diagnostic): string {
  return `${displayPath(d.file)}:${d.line}: ${d.message}`;
}

/** Test hook: `HOOKCTL_TEST_FAULT=kill-before-rename` dies by SIGKILL with the new file written but not renamed. */
function faultInjection(env: NodeJS.ProcessEnv): (() => void) | undefined {
  if (env.HOOKCTL_TEST_FAULT !== 'kill-before-rename') return undefined;
  return () => {
    process.kill(process.pid, 'SIGKILL');
  };
}

// ---- cosh states ----

async function changeCoshStates(req: ChangeRequest, name: string, disabled: boolean): Promise<FileChange> {
  const file = coshStatesFile(req.loc);
  const states = await readCoshStates(file);
  if (states.diagnostics.length > 0) {
    throw new HookctlError(
      'cosh_states_invalid',
      `${states.diagnostics[0]!.message} (${file}); fix or remove it first`,
      ExitCode.no,
    );
  }
  const listed = states.disabled.includes(name);
  if (listed === disabled) return { dialect: 'cosh', file, changed: false, ...(req.dryRun ? { diff: '' } : {}) };
  if (req.dryRun) {
    const before = await readFile(file, 'utf8').catch(() => '');
    const next = disabled ? [...states.disabled, name] : states.disabled.filter((n) => n !== name);
    const after = JSON.stringify({ ...(states.document ?? {}), disabled: next }, null, 2) + '\n';
    const shown = displayPath(file);
    return {
      dialect: 'cosh',
      file,
      changed: true,
      diff: unifiedDiff(before, after, { oldLabel: before === '' ? '/dev/null' : shown, newLabel: shown }),
    };
  }
  const changed = await writeFailures(file, async () => {
    await mkdir(dirname(file), { recursive: true });
    return withFileLock(file, () => setCoshHookDisabled(req.loc, name, disabled));
  });
  return { dialect: 'cosh', file, changed };
}
