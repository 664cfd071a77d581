// The `hooks validate` use case: every source (or only the files named), the rule diagnostics of
// the loaders, in one report. Formatting lives in src/validate/.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { loadCatalog } from './catalog.js';
import type { Diagnostic } from './declarations/diagnostics.js';
import { ExitCode, HookctlError } from './errors.js';
import type { Locations } from './paths.js';

export interface ValidationInput {
  loc: Locations;
  env: NodeJS.ProcessEnv;
  /** Files named on the command line; empty = every source. */
  files: string[];
}

export interface ValidationOutcome {
  files: string[];
  diagnostics: Diagnostic[];
}

export async function validateSources(input: ValidationInput): Promise<ValidationOutcome> {
  if (input.files.length === 0) {
    const catalog = await loadCatalog(input.loc, { env: input.env });
    return { files: catalog.files, diagnostics: catalog.diagnostics };
  }
  const files = input.files.map((f) => resolve(f));
  for (const [i, f] of files.entries()) {
    const st = await stat(f).catch(() => undefined);
    if (!st) throw new HookctlError('file_not_found', `no such file "${input.files[i]}"`, ExitCode.usage);
    if (st.isDirectory()) throw new HookctlError('file_is_directory', `"${input.files[i]}" is a directory, not a declaration file`, ExitCode.usage);
  }
  const diagnostics: Diagnostic[] = [];
  for (const file of files) diagnostics.push(...(await validateOneFile(file, input)));
  return { files, diagnostics };
}

async function validateOneFile(file: string, input: ValidationInput): Promise<Diagnostic[]> {
  const { readFile } = await import('node:fs/promises');
  const buf = await readFile(file).catch(() => undefined);
  const text = buf ? buf.toString('utf8') : '';
  const [{ detectCompozyFileKind, validateCompozyFile }, { detectCoshFileKind, validateCoshFile }] = await Promise.all([
    import('./declarations/compozy/load.js'),
    import('./declarations/cosh/load.js'),
  ]);
  if (detectCoshFileKind(file, text)) return (await validateCoshFile(file, input.loc, input.env)).diagnostics;
  return (await validateCompozyFile(file, input.loc, input.env)).diagnostics;
}
