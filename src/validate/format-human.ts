// `hooks validate` for a terminal: one line per diagnostic, `file:line[:col] severity code
// message [hook]`, files separated by a blank line, then `N files, E errors, W warnings`.
// Colour comes only through the function passed in (the colour module decides if it is on).
import type { Style } from '../cli/colour.js';
import type { Diagnostic } from '../declarations/diagnostics.js';
import type { ValidateReport } from './report.js';
import { runsByFile } from '../views/location.js';

export interface HumanFormatOptions {
  color: (style: Style, text: string) => string;
}

export function formatHuman(report: ValidateReport, { color }: HumanFormatOptions): string {
  const blocks: string[] = [];
  for (const group of runsByFile(report.diagnostics)) {
    const locations = group.map(location);
    const locationWidth = Math.max(...locations.map((l) => l.length));
    const severityWidth = Math.max(...group.map((d) => d.severity.length));
    const lines = group.map((d, i) => {
      // Pad before painting: escape codes would count as width.
      const parts = [
        locations[i]!.padEnd(locationWidth),
        color(d.severity === 'error' ? 'error' : 'warning', d.severity.padEnd(severityWidth)),
        color('dim', d.code),
        d.message,
      ];
      if (d.hook !== undefined) parts.push(color('accent', `[${d.hook}]`));
      return parts.join('  ');
    });
    blocks.push(lines.join('\n'));
  }
  blocks.push(summary(report, color));
  return blocks.join('\n\n');
}

function location(d: Diagnostic): string {
  return d.column === undefined ? `${d.file}:${d.line}` : `${d.file}:${d.line}:${d.column}`;
}

function summary(report: ValidateReport, color: HumanFormatOptions['color']): string {
  const files = plural(report.files.length, 'file');
  const errors = plural(report.errors, 'error');
  const warnings = plural(report.warnings, 'warning');
  if (report.errors === 0 && report.warnings === 0) return color('ok', `${files}, ${errors}, ${warnings}`);
  return [
    files,
    report.errors > 0 ? color('error', errors) : errors,
    report.warnings > 0 ? color('warning', warnings) : warnings,
  ].join(', ');
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
