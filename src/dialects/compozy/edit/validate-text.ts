// Validating a config.toml from its text, before it is written: the same parser and rules the
// loaders apply to the file on disk (compozy/config.ts, normalise.ts), so a change that passes
// here loads cleanly.
import { parseConfigToml } from '../sources/config.js';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import { normaliseCompozyHook } from '../rules/declaration.js';

/** Every diagnostic of a config.toml text, top to bottom. `cwd` is the hooks' working folder. */
export function validateConfigText(text: string, file: string, opts: { cwd: string; global: boolean }): Diagnostic[] {
  const parsed = parseConfigToml(text.replace(/^\uFEFF/, ''), file, opts.cwd, { global: opts.global });
  const diagnostics = [...parsed.diagnostics];
  for (const raw of parsed.raws) diagnostics.push(...normaliseCompozyHook(raw).diagnostics);
  return diagnostics.sort((a, b) => a.line - b.line);
}
