// Changing CompozyOS config.toml declarations (SPEC §6.1): read the target (its names, the
// errors it already has), compute the edit (declaration-edit.ts), validate the whole resulting
// file, then write it atomically under the file's lock — or, with --dry-run, only its diff.
//
// Concurrency: every writer holds `<file>.lock` (file-lock.ts) from reading the file to renaming
// the new one, so parallel changes take turns and each sees the others' results. As a second
// guard against writers that do not take the lock (an editor), the file's hash is compared just
// before the rename: a mismatch writes nothing (`hook_config_changed`).
import { mkdir, readFile, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import { decodeSourceBytes } from '../../../declarations/source-file.js';
import {
  faultInjection,
  removeStrayTempFiles,
  sha256,
  writeFailures,
  writeFileAtomic,
  writeTarget,
} from '../../../edit/atomic-write.js';
import { withFileLock } from '../../../edit/file-lock.js';
import { unifiedDiff } from '../../../edit/unified-diff.js';
import { ExitCode, HookctlError } from '../../../errors.js';
import { displayPath } from '../../../display-path.js';
import type { ChangeRequest, EditTarget, FileChange } from '../../types.js';
import { declarationNamesOf, editConfigText, type EditRequest, type FieldChange } from './declaration-edit.js';
import { validateConfigText } from './validate-text.js';

interface TargetText extends EditTarget {
  /** Where writes go: the file a symbolic link points to, so the link stays a link. */
  realFile: string;
  exists: boolean;
  /** The text as read (a BOM kept); '' for a missing file. */
  text: string;
  hash: string | null;
  /** Errors the file already has: no change is made to it. */
  errors: Diagnostic[];
}

export async function readTarget(file: string, req: Pick<ChangeRequest, 'loc' | 'scope'>): Promise<TargetText> {
  const realFile = await realpath(file).catch(() => writeTarget(file).catch(() => file));
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

export async function changeCompozyFile(
  req: ChangeRequest,
  file: string,
  name: string,
): Promise<{ change: FileChange; warnings: string[] }> {
  if (req.dryRun) return computeCompozyChange(req, await readTarget(file, req), name);
  const realFile = await realpath(file).catch(() => writeTarget(file).catch(() => file));
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
    return { action: req.action, name, changes: (req.changes ?? []) as FieldChange[] };
  return { action: req.action, name };
}

function describe(d: Diagnostic): string {
  return `${displayPath(d.file)}:${d.line}: ${d.message}`;
}
