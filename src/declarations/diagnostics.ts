// One problem found in a declaration source. Every loader and validator reports through this
// shape so `hooks validate` can print any of them as text, JSON, GitHub annotations or SARIF.
import type { Source } from './model.js';

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  severity: Severity;
  /** Stable snake_case identifier, listed in docs/DIAGNOSTICS.md. */
  code: string;
  /** One line. For compozy rules this is the exact text SPEC.md quotes (with its prefixes). */
  message: string;
  /** Absolute path. Formatters make it relative to the cwd when inside it. */
  file: string;
  line: number;
  column?: number;
  source?: Source;
  hook?: string;
}

export function isError(d: Diagnostic): boolean {
  return d.severity === 'error';
}
