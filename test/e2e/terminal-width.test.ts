// Tables fit the terminal (SPEC §7.4), checked in a real terminal: tmux at 80 and 200 columns.
// Before, `hooks list` on the demo was 90–97 characters wide at 80 columns (every row wrapped)
// and `list --all` wrapped even at 200.
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/cli/table.js';
import { demoDir, demoEnv, runCli } from '../support/cli.js';
import { hasTmux, runInTerminal } from '../support/terminal.js';

const W = ['--workspace', `${demoDir}/workspace`, '--additional-dir', `${demoDir}/extra`];
const TABLES = [
  ['hooks', 'list', ...W],
  ['hooks', 'list', '--all', ...W],
  ['hooks', 'events'],
];

describe.skipIf(!hasTmux)('tables in a real terminal', { timeout: 120_000 }, () => {
  for (const columns of [80, 200]) {
    it(`at ${columns} columns no line is wider than the terminal, and cut cells end in …`, async () => {
      for (const args of TABLES) {
        // The table: its heading row and the rows after it, columns two spaces apart (a command may
        // print a sentence above or below it, which a terminal wraps as any sentence).
        const table = (text: string[]) => {
          const rows = text.slice(
            Math.max(
              0,
              text.findIndex((l) => /^(Order|Event)\s/.test(l)),
            ),
          );
          const end = rows.findIndex((l) => !l.includes('  '));
          return end < 0 ? rows : rows.slice(0, end);
        };
        const lines = table(await runInTerminal(args, { columns, env: demoEnv() }));
        const what = `${args.slice(0, 3).join(' ')} at ${columns}`;
        expect(lines.length, what).toBeGreaterThan(3);
        for (const line of lines) expect(displayWidth(line), `${what}: ${line}`).toBeLessThanOrEqual(columns);
        // the same rows as the uncut table, piped (one screen line per row: nothing wrapped)
        const piped = await runCli(args, { env: demoEnv() });
        const rows = table(piped.stdout.trimEnd().split('\n'));
        expect(lines.length, what).toBe(rows.length);
        const natural = Math.max(...rows.map((r) => displayWidth(r)));
        if (natural > columns)
          expect(
            lines.some((l) => l.includes('…')),
            what,
          ).toBe(true);
        else expect(lines, what).toEqual(rows);
      }
    });
  }

  it('piped output is never cut, and -o json never', async () => {
    const [human, json] = await Promise.all([
      runCli(['hooks', 'list', '--all', ...W], { env: demoEnv() }),
      runCli(['hooks', 'list', '--all', ...W, '-o', 'json'], { env: demoEnv({ COLUMNS: '40' }) }),
    ]);
    expect(human.stdout).not.toContain('…');
    expect(Math.max(...human.stdout.split('\n').map((l) => displayWidth(l)))).toBeGreaterThan(80);
    expect(json.stdout).not.toContain('…');
  });

  it('COLUMNS is the width when stdout is not a terminal', async () => {
    const r = await runCli(['hooks', 'list', ...W], { env: demoEnv({ COLUMNS: '60' }) });
    for (const line of r.stdout.trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(60);
    // names are never cut: columns that cannot fit beside them are left out, and said so
    expect(r.stdout).toContain('block-secret-file-edits');
    expect(r.stdout).toMatch(/^\(left out to fit: Priority, Source; -o json has all\)$/m);
  });
});
