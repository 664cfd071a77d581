// The cosh examples of fixtures/demo/README.md, run for real on a temp copy of the demo (so no
// run record lands in the repository): what the README promises is what the built CLI does.
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../src/ledger/record.js';
import { demoDir } from '../support/cli.js';
import { coshTree, removeCoshTrees } from '../fixtures/e2e-cosh/setup.js';

afterAll(removeCoshTrees);

/** The demo tree (home/, system/, workspace/ as coshTree expects) with no old sessions. */
function demoCopy() {
  const tree = coshTree({}, demoDir);
  rmSync(join(tree.coshHome, 'sessions'), { recursive: true, force: true });
  rmSync(join(tree.compozyHome, 'sessions'), { recursive: true, force: true });
  return tree;
}

const fireArgs = (event: string, payload: string, ...flags: string[]) => [
  'hooks',
  'fire',
  event,
  '--payload',
  join('payloads', payload),
  ...flags,
];

describe.concurrent('fixtures/demo cosh examples', () => {
  it('PreToolUse cosh-rm.json: security-check blocks (exit 1) and shell-audit never runs', async () => {
    const tree = demoCopy();
    const human = await tree.cli(fireArgs('PreToolUse', 'cosh-rm.json'));
    expect(human.code, human.stderr).toBe(1);
    expect(human.stdout).toMatch(/^verdict\s+block$/m);
    expect(human.stdout).toMatch(/^reason\s+Dangerous rm -rf command$/m);
    expect(human.stdout).toMatch(/^message\s+Command blocked by security policy$/m);
    // the decision in its own column, the reason in Error (SPEC §7.4)
    expect(human.stdout).toMatch(
      /^security-check\s+sync\s+denied\s+block\s+\d+ ms\s+reason: Dangerous rm -rf command$/m,
    );
    expect(human.stdout).not.toContain('shell-audit');
    expect(human.stdout).not.toContain('system-audit');

    const jsonl = await tree.cli(fireArgs('PreToolUse', 'cosh-rm.json', '-o', 'jsonl'));
    expect(jsonl.code).toBe(1);
    const lines = jsonl.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ hook_name: 'security-check', outcome: 'denied', decision: 'block' });
    expect(lines[1]).toBe(
      '{"type":"stream_event","event":{"subtype":"hook_notification","hook_name":"security-check","message":"Command blocked by security policy","decision":"block"}}',
    );
  });

  it('PreToolUse cosh-ls.json: security-check and shell-audit (the user copy) allow, with one notification (exit 0)', async () => {
    const tree = demoCopy();
    const human = await tree.cli(fireArgs('PreToolUse', 'cosh-ls.json'));
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^verdict\s+allow$/m);
    expect(human.stdout).toMatch(/^message\s+demo-guard: shell command audited$/m);
    expect(human.stdout).toMatch(/^security-check\s+sync\s+applied\s+allow\s+\d+ ms$/m);
    expect(human.stdout).toMatch(/^shell-audit\s+sync\s+applied\s+allow\s+\d+ ms$/m);

    const jsonl = await tree.cli(fireArgs('PreToolUse', 'cosh-ls.json', '-o', 'jsonl'));
    expect(jsonl.code).toBe(0);
    const lines = jsonl.stdout.trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { hook_name?: string }).hook_name ?? 'notification')).toEqual([
      'security-check',
      'shell-audit',
      'notification',
    ]);
    expect(lines[2]).toBe(
      '{"type":"stream_event","event":{"subtype":"hook_notification","hook_name":"shell-audit","message":"demo-guard: shell command audited","decision":"allow"}}',
    );
  });

  it('UserPromptSubmit, SessionStart and Stop behave as the README says, and hooks runs shows them all', async () => {
    const tree = demoCopy();
    // One after another: their records share the session cosh_demo.
    const injection = await tree.cli(fireArgs('UserPromptSubmit', 'cosh-prompt-injection.json'));
    expect(injection.code).toBe(1);
    expect(injection.stdout).toMatch(/^reason\s+Prompt looks like an injection attempt \(mode strict\)$/m);
    const prompt = await tree.cli(fireArgs('UserPromptSubmit', 'cosh-prompt.json'));
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toMatch(/^verdict\s+pass$/m);
    const start = await tree.cli(fireArgs('SessionStart', 'cosh-session.json', '-o', 'json'));
    expect(start.code).toBe(0);
    expect(JSON.parse(start.stdout)).toMatchObject({
      verdict: 'pass',
      additional_context: 'Project demo-shop: TypeScript web shop. Run npm test before you commit.',
    });
    const stop = await tree.cli(fireArgs('Stop', 'cosh-stop.json'));
    expect(stop.code).toBe(0);
    expect(stop.stdout).toMatch(/^message\s+Before you stop: did npm test pass\?$/m);

    const runs = await tree.cli(['hooks', 'runs', '--session', 'cosh_demo', '-o', 'json']);
    expect(runs.code).toBe(0);
    expect((JSON.parse(runs.stdout) as RunRecord[]).map((r) => [r.hook_name, r.outcome])).toEqual([
      ['prompt-guard', 'denied'],
      ['prompt-guard', 'applied'],
      ['context-loader', 'applied'],
      ['stop-reminder', 'applied'],
    ]);
    const validate = await tree.cli(['hooks', 'validate', '--additional-dir', 'extra']);
    expect(validate.code, validate.stdout).toBe(0);
  });
});
