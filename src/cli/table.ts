// Human tables. cli-table3 colours its borders and heads by itself (even when piped), so its
// styles are switched off and colour comes only from the colour module.
import Table from 'cli-table3';
import type { Colour } from './colour.js';

export function renderTable(head: string[], rows: (string | number | null | undefined)[][], colour: Colour): string {
  const table = new Table({
    head: head.map((h) => colour.paint('bold', h)),
    style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 2 },
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
      bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
      left: '', 'left-mid': '', mid: '', 'mid-mid': '',
      right: '', 'right-mid': '', middle: '',
    },
  });
  for (const row of rows) table.push(row.map((c) => (c === null || c === undefined ? '' : String(c))));
  return table
    .toString()
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n');
}
