// A user's day in a real terminal (tmux at 80 and 200 columns) on a Claude Code project: every
// table fits without a wrapped row, and what the user types next — hook names, event names, the
// session id — is never cut (SPEC §7.4). Before, at 80 columns `project:PreToolUse:1.1` and
// `…:2.1` both showed as `project:PreTool…`, `runs --stats` put p99 and Max on a second line,
// `runs --follow` printed ~110 columns, the dry-run cut the Matcher cell before its verdict and
// the `hooks events` footer was 81 columns.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/cli/table.js';
import { runCli } from '../support/cli.js';
import { hasTmux, runInTerminal } from '../support/terminal.js';
import { cmd, group, sandbox, type Sandbox } from './claude-support.js';

const SESSION = '3f2a9c1e-8d4b-4c7a-9e21-5b6d7f8a9c0d';
const HOOKS = ['project:PreToolUse:1.1', 'project:PreToolUse:2.1', 'project:UserPromptSubmit:1.1'];
const TIME = /(\d\d:\d\d:\d\d|\d\d-\d\d \d\d:\d\d)$/; // the short forms: today, or another day

let box: Sandbox;
let payload: string;

beforeAll(async () => {
  box = sandbox();
  const ok = box.script('ok.sh', 'cat >/dev/null');
  const noisy = box.script(
    'noisy.sh',
    'cat >/dev/null; echo "the policy service answered with a long explanation of what went wrong" >&2; exit 1',
  );
  box.settings({
    PreToolUse: [group([cmd(ok)], 'Bash'), group([cmd(noisy)], 'Write|Edit')],
    UserPromptSubmit: [group([cmd(ok)])],
  });
  for (const tool of ['Bash', 'Write', 'Edit']) {
    const r = await box.fire('PreToolUse', { tool_name: tool, tool_input: { command: 'ls' } }, '--session', SESSION);
    expect(r.code, r.stderr).toBe(0);
  }
  const r = await box.fire('UserPromptSubmit', { prompt: 'hello' }, '--session', SESSION);
  expect(r.code, r.stderr).toBe(0);
  payload = join(box.root, 'edit.json');
  writeFileSync(payload, JSON.stringify({ session_id: SESSION, tool_name: 'Edit', tool_input: { file_path: 'a' } }));
}, 120_000);

const W = () => ['--workspace', box.workspace];
const screen = (args: string[], columns: number) => runInTerminal([...args, ...W()], { columns, env: box.env });

/** Every line fits: a wrapped line comes back from the terminal longer than its width. */
function fits(lines: string[], columns: number, what: string): void {
  expect(lines.length, what).toBeGreaterThan(1);
  for (const line of lines) expect(displayWidth(line), `${what}: ${line}`).toBeLessThanOrEqual(columns);
}

describe.skipIf(!hasTmux)('tables fit and never cut an identifier, in a real terminal', { timeout: 120_000 }, () => {
  for (const columns of [80, 200]) {
    it(`at ${columns}: hooks list of a Claude project has its columns and whole names`, async () => {
      const lines = await screen(['hooks', 'list'], columns);
      fits(lines, columns, 'list');
      // one dialect in every row: its own columns without --dialect claude
      expect(lines[0]).toMatch(/^Order\s+Name\s+Event\s+Matcher\s+Type(\s+Label)?$/);
      for (const hook of HOOKS) expect(lines.some((l) => l.includes(`${hook}  `))).toBe(true);
      expect(lines.some((l) => /\bUserPromptSubmit\s/.test(l))).toBe(true);
    });

    it(`at ${columns}: runs shows whole names and whole times (short at 80)`, async () => {
      const lines = await screen(['hooks', 'runs', '--session', SESSION], columns);
      fits(lines, columns, 'runs');
      const rows = lines.filter((l) => l.startsWith('project:'));
      expect(rows).toHaveLength(4);
      for (const hook of HOOKS) expect(rows.some((l) => l.startsWith(`${hook}  `))).toBe(true);
      if (columns === 80) for (const row of rows) expect(row).toMatch(TIME);
      else for (const row of rows) expect(row).toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(rows.filter((l) => /\sfailed\s/.test(l))).toHaveLength(2);
    });

    it(`at ${columns}: runs --stats keeps each row on one line, Max on it`, async () => {
      const lines = await screen(['hooks', 'runs', '--stats', '--session', SESSION], columns);
      fits(lines, columns, 'stats');
      expect(lines[0]).toMatch(/^Hook\s+Event\s.*\bRuns\s.*\bMax$/);
      const rows = lines.filter((l) => l.startsWith('project:'));
      expect(rows).toHaveLength(3);
      for (const row of rows) expect(row).toMatch(/\d+ ms$/);
      for (const hook of HOOKS) expect(rows.some((l) => l.startsWith(`${hook}  `))).toBe(true);
      if (columns === 200) expect(lines[0]).toMatch(/\bp50\s+p95\s+p99\s+Max$/);
      else expect(lines.at(-2)).toMatch(/^\(left out to fit: Dialect, /); // above whose runs they are
    });

    it(`at ${columns}: sessions shows the whole id that --session takes`, async () => {
      const lines = await screen(['hooks', 'sessions'], columns);
      fits(lines, columns, 'sessions');
      expect(lines[1]).toMatch(new RegExp(`^${SESSION}  `));
      expect(lines[1]).toMatch(columns === 80 ? TIME : /Z$/);
    });

    it(`at ${columns}: fire --dry-run gives the match verdict its own column`, async () => {
      const lines = await screen(['hooks', 'fire', 'PreToolUse', '--payload', payload, '--dry-run'], columns);
      fits(lines, columns, 'dry-run');
      expect(lines[0]).toMatch(/^dialect {2}claude {2}\(dry run/); // issue 28: the dialect first
      expect(lines[1]).toMatch(/^Order\s+Name\s+Type\s+Matcher\s+Matched\s+If\s+Gate$/);
      expect(lines[2]).toMatch(/^1\s+project:PreToolUse:1\.1\s+command\s+.*\s+no\s+active$/);
      expect(lines[3]).toMatch(/^2\s+project:PreToolUse:2\.1\s+command\s+.*\s+yes\s+active$/);
    });

    it(`at ${columns}: hooks events and its footer fit, event names whole`, async () => {
      const lines = await screen(['hooks', 'events'], columns);
      fits(lines, columns, 'events');
      expect(lines.at(-1)).toMatch(/^Catalog: .+ \(see(: hookctl hooks events)? --changes\)$/);
      expect(lines.some((l) => l.startsWith('session.runtime_recovery.succeeded  '))).toBe(true);
      expect(lines.some((l) => l.startsWith('UserPromptSubmit  '))).toBe(true);
    });

    it(`at ${columns}: info's last runs fit`, async () => {
      const lines = await screen(['hooks', 'info', 'project:PreToolUse:2.1'], columns);
      const runs = lines.slice(lines.indexOf('Last runs') + 1); // above: fields, not a table
      fits(runs, columns, 'info');
      expect(runs[0]).toMatch(/^Event\s+Outcome\s+Duration\s+Error\s+Recorded$/);
      expect(runs.filter((l) => l.startsWith('PreToolUse  '))).toHaveLength(2);
    });

    it(`at ${columns}: runs --follow has the columns and order of runs, and no line wraps`, async () => {
      const lines = await runInTerminal(['hooks', 'runs', '--follow', '--session', SESSION, ...W()], {
        columns,
        env: box.env,
        until: (l) => l.filter((x) => x.startsWith('project:')).length === 4,
      });
      fits(lines, columns, 'follow');
      expect(lines[0]).toMatch(/^workspace /); // whose runs these are, above the table
      expect(lines[1]).toMatch(/^Hook\s+Event\s+Outcome\s+Duration\s+Error\s+Recorded$/);
      const rows = lines.filter((l) => l.startsWith('project:'));
      for (const hook of HOOKS) expect(rows.some((l) => l.startsWith(`${hook}  `))).toBe(true);
      for (const row of rows) expect(row).toMatch(columns === 80 ? TIME : /Z$/);
      // a heading shown again says which columns the rows under it have
      for (const l of lines.filter((x) => x.startsWith('Hook '))) expect(l).toMatch(/^Hook\s+Event\s+Outcome\s/);
    });
  }

  it('piped, nothing is cut or shortened', async () => {
    const r = await runCli(['hooks', 'runs', '--session', SESSION, ...W()], { env: box.env });
    expect(r.stdout).not.toContain('…');
    expect(r.stdout).toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/m);
  });
});
