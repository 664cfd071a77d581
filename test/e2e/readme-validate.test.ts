// The `hooks validate` output README.md prints for the demo and for fixtures/broken is what the
// built CLI prints there (issue 22): the summary lines and the example diagnostics, read from the
// README itself, so the two cannot drift apart again.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoCopy, demoDir, isolatedEnv, repoRoot, runCli } from '../support/cli.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const SUMMARY = /^\d+ files?, \d+ errors?, \d+ warnings?$/;

/** The lines of the fenced block that starts with `$ <command>`, after that line. */
function shownOutput(command: string): string[] {
  const start = readme.indexOf(`\n$ ${command}\n`);
  expect(start, `README shows "$ ${command}"`).toBeGreaterThan(0);
  const body = readme.slice(start + command.length + 4);
  return body.slice(0, body.indexOf('\n```')).split('\n');
}

describe('README validate output', { timeout: 120_000 }, () => {
  it('the demo: the block shown is what validate prints, summary and exit code', async () => {
    const command = 'hookctl hooks validate --workspace workspace --additional-dir extra';
    const shown = shownOutput(command);
    expect(shown.some((l) => SUMMARY.test(l))).toBe(true);
    const { base, env } = demoCopy();
    const r = await runCli(command.split(' ').slice(1), { env, cwd: base });
    expect([...r.stdout.trimEnd().split('\n'), `(exit ${r.code})`]).toEqual(shown);
  });

  it('fixtures/broken: the summary and every example diagnostic are what validate prints', async () => {
    const broken = join(demoDir, '..', 'broken');
    const env = isolatedEnv({
      compozyHome: join('fixtures', 'broken', 'home', '.compozy'),
      coshHome: join('fixtures', 'broken', 'home', '.copilot-shell'),
      systemRoot: join('fixtures', 'broken', 'system'),
    });
    const r = await runCli(['hooks', 'validate', '--workspace', join('fixtures', 'broken', 'workspace')], {
      env,
      cwd: repoRoot,
    });
    expect(r.code).toBe(1);
    const printed = r.stdout.trimEnd().split('\n');
    const summary = /On `fixtures\/broken` [^`]*`([^`]+)`/.exec(readme);
    expect(summary, 'README names the fixtures/broken summary').not.toBeNull();
    expect(summary![1]).toMatch(SUMMARY);
    expect(printed.at(-1)).toBe(summary![1]);
    // The example block after that sentence: each line is printed, an absolute path shown as "…".
    const after = readme.slice(summary!.index);
    const block = after.slice(after.indexOf('```\n') + 4, after.indexOf('\n```', after.indexOf('```\n') + 4));
    const examples = block.split('\n').filter((l) => l.startsWith('fixtures/broken/'));
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const line of examples) {
      const [before, rest] = line.split('…');
      const found = printed.find((p) =>
        rest === undefined ? p === line : p.startsWith(before!) && p.endsWith(rest) && p.includes(broken),
      );
      expect(found, line).toBeDefined();
    }
  });
});
