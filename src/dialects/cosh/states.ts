// cosh's persisted enable/disable state (SPEC §6.1): `$COSH_HOME/states/hooks.json` holds
// `{"disabled": [...]}`, names of hooks that do not run (every cosh hook of that name).
// cosh-core keeps `states/extensions.json` in the same shape for whole extensions; it is read
// here too, so an extension the runtime would not load does not fire from hookctl either.
import { mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { HookctlError, ExitCode } from '../../errors.js';
import { coshStatesFile, type Locations } from '../../paths.js';
import type { Diagnostic } from '../../declarations/diagnostics.js';

export const coshExtensionStatesFile = (loc: Locations) => join(loc.coshHome, 'states', 'extensions.json');

export interface CoshStates {
  file: string;
  /** Names listed under `disabled`, in file order. */
  disabled: string[];
  /** A broken file: the names it lists cannot be known, so none are applied. */
  diagnostics: Diagnostic[];
  /** The whole document, to keep keys other than `disabled` on write. */
  document?: Record<string, unknown>;
}

export async function readCoshStates(file: string): Promise<CoshStates> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8'); // synchronous: list and fire read it on every start
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { file, disabled: [], diagnostics: [] };
    return broken(file, `cannot read ${basename(file)}: ${code ?? String(error)}`);
  }
  if (text.trim() === '') return { file, disabled: [], diagnostics: [] };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    return broken(
      file,
      `${basename(file)} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    return broken(file, `${basename(file)} must be a JSON object`);
  const list = (doc as Record<string, unknown>)['disabled'];
  if (list === undefined) return { file, disabled: [], diagnostics: [], document: doc as Record<string, unknown> };
  if (!Array.isArray(list) || list.some((n) => typeof n !== 'string')) {
    return broken(file, `${basename(file)}: "disabled" must be an array of names`);
  }
  return { file, disabled: list as string[], diagnostics: [], document: doc as Record<string, unknown> };
}

/** Names of cosh hooks disabled in `$COSH_HOME/states/hooks.json` (none when it is missing or broken). */
export async function readDisabledCoshHooks(loc: Locations): Promise<string[]> {
  return (await readCoshStates(coshStatesFile(loc))).disabled;
}

/** The states file, for a change: a broken one is refused (`cosh_states_invalid`), not overwritten. */
export async function readStatesToChange(file: string): Promise<Awaited<ReturnType<typeof readCoshStates>>> {
  const states = await readCoshStates(file);
  if (states.diagnostics.length > 0) {
    throw new HookctlError(
      'cosh_states_invalid',
      `${states.diagnostics[0]!.message} (${file}); fix or remove it first`,
      ExitCode.no,
    );
  }
  return states;
}

/**
 * Adds (`disabled` true) or removes a name in `$COSH_HOME/states/hooks.json`, keeping every other
 * key. Returns whether the file changed. The write is atomic and goes through a symbolic link
 * (src/edit/atomic-write.ts); the caller holds the file's lock. A broken states file is refused
 * rather than overwritten. The writer is imported here, when a change is made: every `list`
 * reads this module, and none of them needs node:crypto.
 */
export async function setCoshHookDisabled(loc: Locations, name: string, disabled: boolean): Promise<boolean> {
  const file = coshStatesFile(loc);
  const states = await readStatesToChange(file);
  const has = states.disabled.includes(name);
  if (has === disabled) return false;
  const next = disabled ? [...states.disabled, name] : states.disabled.filter((n) => n !== name);
  const document = { ...(states.document ?? {}), disabled: next };
  const { writeFileAtomic, writeTarget } = await import('../../edit/atomic-write.js');
  const target = await writeTarget(file);
  mkdirSync(dirname(target), { recursive: true });
  await writeFileAtomic(target, JSON.stringify(document, null, 2) + '\n');
  return true;
}

function broken(file: string, message: string): CoshStates {
  return {
    file,
    disabled: [],
    diagnostics: [
      {
        severity: 'warning',
        code: 'cosh_states_invalid',
        message: `${message}; its disabled list is not applied`,
        file,
        line: 1,
      },
    ],
  };
}
