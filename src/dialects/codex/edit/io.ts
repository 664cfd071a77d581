// The I/O every codex edit shares (codex.md §7): read a target file as text, check a text as
// Codex would (the sources' own checks, so an edit validates exactly as `validate` does), list
// the handlers of a text with their keys' hashes (for the trust notes), and write a new text
// atomically under the file's lock, through a symlink rather than over it — or, on a dry run,
// only compute the unified diff.
import { mkdir, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import { faultInjection, removeStrayTempFiles, writeFailures, writeFileAtomic } from '../../../edit/atomic-write.js';
import { readEditTarget, type TargetText } from '../../../edit/edit-target.js';
import { withFileLock } from '../../../edit/file-lock.js';
import { unifiedDiff } from '../../../edit/unified-diff.js';
import { displayPath } from '../../../display-path.js';
import { ExitCode, HookctlError } from '../../../errors.js';
import type { CodexFileKind, CodexSource } from '../model.js';
import type { CheckedDocument } from '../rules/check.js';
import { rawHandlerHash } from '../sources/load.js';
import { readHooksJsonText } from '../sources/json-file.js';
import { checkTomlHooks, parseTomlText } from '../sources/toml-file.js';
import { CodexEditError } from './model.js';

export type { TargetText };

export interface FileMeta {
  file: string;
  fileKind: CodexFileKind;
  origin: string;
  source: CodexSource;
}

export function readTarget(file: string, kind: CodexFileKind): Promise<TargetText> {
  return readEditTarget(file, { json: kind === 'hooks_json' });
}

/** The checked hooks of a text, or the diagnostic of a text that does not parse. */
export function checkText(text: string, meta: FileMeta): { checked?: CheckedDocument; diagnostics: Diagnostic[] } {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return { diagnostics: [] };
  if (meta.fileKind === 'hooks_json') {
    const read = readHooksJsonText(body, meta);
    return read.ok
      ? { checked: read.checked, diagnostics: read.checked.diagnostics }
      : { diagnostics: [read.diagnostic] };
  }
  const read = parseTomlText(body, meta.file, meta.source);
  if (!read.ok) return { diagnostics: [read.diagnostic] };
  const checked = checkTomlHooks(read.doc, meta);
  return { checked, diagnostics: checked.diagnostics };
}

export const errorsOf = (ds: readonly Diagnostic[]) => ds.filter((d) => d.severity === 'error');

/** Each handler of a checked text: its name, its key's position part, and its current hash. */
export function handlerHashes(
  checked: CheckedDocument | undefined,
  toml: boolean,
): Map<string, { name: string; hash: string }> {
  const out = new Map<string, { name: string; hash: string }>();
  for (const raw of checked?.handlers ?? []) {
    const { current_hash } = rawHandlerHash(raw, toml);
    out.set(`${raw.eventData.label}:${raw.groupIndex}:${raw.handlerIndex}`, { name: raw.name, hash: current_hash });
  }
  return out;
}

export interface FileOutcome {
  file: string;
  changed: boolean;
  created?: boolean;
  diff?: string;
  before: string;
  after: string;
}

/**
 * Computes the new text of `file` from its current one and writes it (atomically, under the
 * file's lock, re-reading the file under the lock), or on a dry run only diffs it. `compute`
 * throws to refuse; a CodexEditError becomes `hook_edit_failed` (or `hook_not_found`).
 */
export async function changeFile(
  file: string,
  kind: CodexFileKind,
  opts: { dryRun: boolean; env: NodeJS.ProcessEnv },
  compute: (current: TargetText) => string,
): Promise<FileOutcome> {
  const run = (current: TargetText): FileOutcome => {
    let after: string;
    try {
      after = compute(current);
    } catch (err) {
      if (err instanceof CodexEditError) {
        const code = err.refusal;
        throw new HookctlError(code, `cannot edit ${displayPath(file)}: ${err.message}`, ExitCode.no);
      }
      throw err;
    }
    const changed = after !== current.text;
    const out: FileOutcome = { file, changed, before: current.text, after };
    if (changed && !current.exists) out.created = true;
    if (opts.dryRun) {
      const shown = displayPath(file);
      out.diff = unifiedDiff(current.text, after, { oldLabel: current.exists ? shown : '/dev/null', newLabel: shown });
    }
    return out;
  };
  const first = run(await readTarget(file, kind));
  // A refused change creates nothing (no `.codex/` folder), and one that changes nothing writes nothing.
  if (opts.dryRun || !first.changed) return first;
  const realFile = await realpath(file).catch(() => file);
  return writeFailures(file, async () => {
    await mkdir(dirname(realFile), { recursive: true });
    return withFileLock(realFile, async () => {
      await removeStrayTempFiles(realFile);
      // Read again under the lock: another writer may have changed the file meanwhile.
      const current = await readTarget(file, kind);
      const out = run(current);
      if (out.changed) {
        await writeFileAtomic(current.realFile, out.after, {
          expectedHash: current.hash,
          beforeRename: faultInjection(opts.env),
        });
      }
      return out;
    });
  });
}
