// Running one change of SPEC §6.1: pick the files by the ownership rules, refuse what may not
// change (names owned by other sources), then let the dialects that own the files change them:
// the one whose config files hold editable declarations (compozy: config.toml, ConfigEditor) and
// those with an on/off switch (cosh: states/hooks.json, HookSwitch). The registry says which.
import { dialects } from '../dialects/registry.js';
import type {
  ChangeRequest,
  ConfigEditor,
  Dialect,
  EditAction,
  EditScope,
  FileChange,
  HookSwitch,
} from '../dialects/types.js';
import { ExitCode, HookctlError, usageError } from '../errors.js';
import { didYouMean } from '../matching/suggest.js';
import { displayPath } from '../display-path.js';
import { loadCatalog } from './catalog.js';

export type { ChangeRequest, FileChange } from '../dialects/types.js';
export type Scope = EditScope;
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

/** The dialect whose config files create/update/delete write (compozy). */
function configEditor(): { dialect: Dialect; editor: ConfigEditor } {
  for (const dialect of dialects()) {
    const editor = dialect.mutations?.config;
    if (editor) return { dialect, editor };
  }
  throw new Error('edit: no dialect edits config files');
}

/** A change as the edit commands give it: the field flags become the editing dialect's changes. */
export async function changeFromFlags(req: Omit<ChangeRequest, 'changes'> & { fields: object }): Promise<ChangeResult> {
  const { fields, ...rest } = req;
  const changes = await configEditor().editor.changesFromFlags(req.action, fields as Record<string, unknown>);
  return changeDeclaration({ ...rest, changes });
}

export async function changeDeclaration(req: ChangeRequest): Promise<ChangeResult> {
  const name = req.name.trim();
  if (name === '') throw usageError('the hook name must not be empty');
  const toggle = req.action === 'enable' || req.action === 'disable';
  const { dialect, editor } = configEditor();
  const otherScope: Scope = req.scope === 'global' ? 'workspace' : 'global';
  const file = editor.fileOf(req.loc, req.scope);
  const otherFile = editor.fileOf(req.loc, otherScope);
  const [catalog, target, other] = await Promise.all([
    // create looks only at the editing dialect's names; the others also at every other dialect's
    // hooks, which they may not change (SPEC §6.1: immutable, not missing).
    loadCatalog(req.loc, { dialect: req.action === 'create' ? dialect.name : undefined, env: req.env }),
    editor.readTarget(file, req),
    editor.readTarget(otherFile, { ...req, scope: otherScope }),
  ]);
  const owners = catalog.declarations.filter((d) => d.name === name);
  // The switches that hold this name: a hook of their dialect has it, or (enable) their file
  // still lists it for a hook that is gone.
  const switches: HookSwitch[] = [];
  if (toggle) {
    for (const d of dialects()) {
      const hookSwitch = d.mutations?.switch;
      if (!hookSwitch) continue;
      const owns = owners.some((o) => o.dialect === d.name);
      if (owns || (req.action === 'enable' && (await hookSwitch.holds(req.loc, name)))) switches.push(hookSwitch);
    }
  }
  const plan = planTargets(req.action, name, {
    scope: req.scope,
    targetFile: displayPath(file),
    otherFile: displayPath(otherFile),
    inTarget: target.names.includes(name) || target.unreadable,
    inOther: other.names.includes(name),
    foreignSource: owners.find((d) => d.dialect === dialect.name && d.source !== editor.source)?.source,
    otherDialectSource: owners.find((d) => d.dialect !== dialect.name)?.source,
    cosh: switches.length > 0,
    known: [...target.names, ...other.names, ...catalog.declarations.flatMap((d) => (d.name === null ? [] : [d.name]))],
  });

  const targets: FileChange[] = [];
  const warnings = [...plan.warnings];
  if (plan.compozy) {
    const result = await editor.change(req, file, name);
    targets.push(result.change);
    warnings.push(...result.warnings);
  }
  if (plan.cosh) for (const s of switches) targets.push(await s.set(req, name, req.action === 'disable'));

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
  /** The target config file, as shown to the user (named in a refusal). */
  targetFile?: string;
  /** The other config file, as shown to the user. */
  otherFile: string;
  /** The target config file declares the name (or cannot be read, so it may). */
  inTarget: boolean;
  /** The other config file (the overlay's other half) declares the name. */
  inOther: boolean;
  /** The source of a compozy declaration of that name outside both config files. */
  foreignSource?: string;
  /** A dialect with an on/off switch (cosh) holds the name (only enable/disable look at it). */
  cosh: boolean;
  /** The source of a hook of that name in another dialect (cosh_config, …): update and delete cannot change it. */
  otherDialectSource?: string;
  /** Every hook name there is, for the "did you mean" of a name found nowhere. */
  known?: readonly string[];
}

/**
 * Which files a change touches, by the ownership rules of SPEC §6.1, or the refusal. Only config
 * declarations change (`compozy`: the editing dialect's config file), and for enable/disable the
 * switches (`cosh`); a name owned only by another source is immutable; a workspace create may
 * reuse a name only the global file has.
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
  // A name owned only by another source, or only by another dialect's hook, is not ours to change.
  const owner = facts.foreignSource ?? facts.otherDialectSource;
  if (owner && !facts.inOther) throw immutable(name, owner);
  const details = facts.inOther ? [`it is declared in ${facts.otherFile}: use --scope ${otherScope}`] : [];
  // The SPEC's words (§6.1), then plain ones: which file was looked in.
  const where = facts.targetFile ? ` (${facts.scope} config ${facts.targetFile} has no declaration of that name)` : '';
  const hint = facts.inOther ? '' : didYouMean(name, facts.known ?? []);
  throw new HookctlError(
    'hook_not_found',
    `hook ${q(name)} not found in target config overlay${where}${hint}`,
    ExitCode.no,
    { details },
  );
}

function immutable(name: string, source: string): HookctlError {
  return new HookctlError(
    'hook_source_immutable',
    `hook ${q(name)} source ${q(source)} is immutable by tools`,
    ExitCode.no,
  );
}
