// Declarations with errors stay visible (SPEC §7.2), on fixtures/broken and the built CLI:
// list --all shows them as `invalid` with their first diagnostic as why (JSON: every one), info
// finds them and prints their diagnostics (exit 0), and fire --dry-run lists them instead of
// refusing. "Why did my hook not fire" gets an answer for a broken hook.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoDir, isolatedEnv, runCli } from '../support/cli.js';

const broken = join(demoDir, '..', 'broken');
const env = isolatedEnv({
  compozyHome: join(broken, 'home', '.compozy'),
  coshHome: join(broken, 'home', '.copilot-shell'),
  systemRoot: join(broken, 'system'),
});
const W = ['--workspace', join(broken, 'workspace')];

interface Entry {
  name: string | null;
  dialect: string;
  event: string;
  status: string;
  why: string | null;
  diagnostics?: { code: string; message: string; line: number }[];
}

describe('broken declarations stay visible', { timeout: 120_000 }, () => {
  it('list --all: status invalid, why = the first diagnostic, JSON diagnostics; without --all they are left out', async () => {
    const [all, active, human] = await Promise.all([
      runCli(['hooks', 'list', ...W, '--all', '-o', 'json'], { env }),
      runCli(['hooks', 'list', ...W, '-o', 'json'], { env }),
      runCli(['hooks', 'list', ...W, '--all'], { env }),
    ]);
    expect(all.code).toBe(0);
    const entries = JSON.parse(all.stdout) as Entry[];
    const invalid = entries.filter((e) => e.status === 'invalid');
    expect(invalid.length).toBeGreaterThan(10);
    const badMode = invalid.find((e) => e.name === 'bad-mode')!;
    expect(badMode).toMatchObject({
      dialect: 'compozy',
      event: 'session.post_create',
      why: 'hooks: invalid hook mode "blocking"',
    });
    expect(badMode.diagnostics).toEqual([expect.objectContaining({ code: 'invalid_mode', message: badMode.why })]);
    for (const e of invalid) expect(e.why).toBe(e.diagnostics![0]!.message);
    // both dialects keep theirs
    expect(invalid.some((e) => e.dialect === 'cosh')).toBe(true);
    expect((JSON.parse(active.stdout) as Entry[]).some((e) => e.name === 'bad-mode')).toBe(false);
    expect(human.stdout).toMatch(
      /bad-mode\s+session\.post_create\s+config\s+sync\s+invalid\s+hooks: invalid hook mode "blocking"/,
    );
    expect(human.stderr).toContain('the hooks they affect are shown as invalid');
  });

  it('info NAME finds a broken declaration and prints its diagnostics, exit 0', async () => {
    const [human, json] = await Promise.all([
      runCli(['hooks', 'info', 'bad-mode', ...W], { env }),
      runCli(['hooks', 'info', 'bad-mode', ...W, '-o', 'json'], { env }),
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/status\s+invalid: hooks: invalid hook mode "blocking"/);
    expect(human.stdout).toMatch(
      /error\s+\S*home\/\.compozy\/config\.toml:\d+:\d+\s+invalid_mode\s+hooks: invalid hook mode "blocking"/,
    );
    const doc = JSON.parse(json.stdout) as { declarations: Entry[] };
    expect(doc.declarations[0]).toMatchObject({ status: 'invalid' });
    expect(doc.declarations[0]!.diagnostics![0]).toMatchObject({ code: 'invalid_mode' });
  });

  it('fire --dry-run never refuses: the plan lists invalid declarations with status invalid', async () => {
    const [plan, real] = await Promise.all([
      runCli(['hooks', 'fire', 'session.post_create', ...W, '--dry-run', '-o', 'json'], { env }),
      runCli(['hooks', 'fire', 'session.post_create', ...W], { env }),
    ]);
    expect(plan.code, plan.stderr).toBe(0);
    const entries = (JSON.parse(plan.stdout) as { plan: { name: string; status: string; matched: boolean }[] }).plan;
    expect(entries.find((e) => e.name === 'bad-mode')).toMatchObject({ status: 'invalid', matched: false });
    expect(real.code).toBe(2); // without --dry-run (or --skip-invalid) fire still refuses
  });
});
