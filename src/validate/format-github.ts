// `hooks validate --format github`: GitHub Actions workflow commands, one annotation per
// diagnostic (`::error file=…,line=…,col=…,title=<code>::<message>`). The command prints these
// and then the plain report (SPEC §6 Conventions).
import type { Diagnostic } from '../declarations/diagnostics.js';
import type { ValidateReport } from './report.js';

export function formatGithub(report: ValidateReport): string {
  return report.diagnostics.map(annotation).join('\n');
}

export function annotation(d: Diagnostic): string {
  const properties = [`file=${escapeProperty(d.file)}`, `line=${d.line}`];
  if (d.column !== undefined) properties.push(`col=${d.column}`);
  properties.push(`title=${escapeProperty(d.code)}`);
  return `::${d.severity} ${properties.join(',')}::${escapeData(d.message)}`;
}

/** The message part: GitHub decodes %25, %0D and %0A. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value: as data, plus `:` and `,`, which would end the value. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
