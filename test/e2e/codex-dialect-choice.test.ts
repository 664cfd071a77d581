// Choosing the dialect of a fire, a dry run and a hooks test when codex is installed (codex.md §7
// rules 1–3), the exit codes of §8 around it, the session a codex fire records under (§5.1) and
// the shared `hooks runs` reading codex records by default (§7 table). The built CLI, a temp
// workspace with `.codex/hooks.json` and, where a test says so, `.claude/settings.json`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

function box() {
  const root = tempDir('hookctl-codex-choice-');
  const ws = join(root, 'ws');
  mkdirSync(join(ws, '.git'), { recursive: true });
  const env: Record<string, string> = { ...isolatedEnv({ home: join(root, 'home') }), SHELL: '/bin/sh' };
  const write = (file: string, text: string) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  write(join(env.CODEX_HOME!, 'config.toml'), `[projects.${JSON.stringify(ws)}]\ntrust_level = "trusted"\n`);
  const one = (event: string, command: string, matcher?: string) =>
    JSON.stringify({
      hooks: { [event]: [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command }] }] },
    });
  return {
    ws,
    env,
    codex: (text: string) => write(join(ws, '.codex', 'hooks.json'), text),
    claude: (text: string) => write(join(ws, '.claude', 'settings.json'), text),
    one,
    run: (args: string[], input = '{}') => runCli(args, { env, cwd: ws, input, timeoutMs: 60_000 }),
  };
}

const json = (stdout: string) => JSON.parse(stdout) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('codex: choosing the dialect (§7 rules 1–3, §8)', () => {
  it('rule 2: Interrupt is codex only, for fire, --dry-run and hooks test', async () => {
    const b = box();
    b.codex(b.one('Interrupt', `echo '{"systemMessage":"bye"}'`));
    const fire = await b.run(['hooks', 'fire', 'Interrupt', '--trust-all', '-o', 'json']);
    expect(fire.code, fire.stderr).toBe(0);
    expect(json(fire.stdout)).toMatchObject({ dialect: 'codex', verdict: 'pass', system_message: 'bye' });
    const dry = await b.run(['hooks', 'fire', 'Interrupt', '--dry-run', '-o', 'json']);
    expect(json(dry.stdout)).toMatchObject({ dialect: 'codex', plan: [{ runnable: false, trust: 'untrusted' }] });
    const file = join(b.ws, 'interrupt.hooktest.yaml');
    writeFileSync(
      file,
      'name: interrupt\ncases:\n  - name: runs when trusted\n    event: Interrupt\n    trust_all: true\n    payload: {}\n    expect: { verdict: pass, exit_code: 0 }\n',
    );
    const t = await b.run(['hooks', 'test', file]);
    expect(t.code, t.stdout + t.stderr).toBe(0);
    expect(t.stdout).toContain('1 passed, 0 failed');
  });

  it('hooks test --init: a hook not trusted yet gets a trust_all case that runs it, not one that expects a skip', async () => {
    const b = box();
    b.codex(b.one('PreToolUse', `echo 'no pushes' >&2; exit 2`, 'Bash'));
    const init = await b.run(['hooks', 'test', '--init', 'PreToolUse', '--dialect', 'codex']);
    expect(init.code, init.stderr).toBe(0);
    const text = readFileSync(join(b.ws, 'PreToolUse.hooktest.yaml'), 'utf8');
    expect(text).toContain('    trust_all: true # not trusted yet: a plain fire skips it (as fire --trust-all)\n');
    expect(text).toContain('reason: "no pushes"');
    expect(text).toContain('outcomes: {"project/.codex/hooks.json:PreToolUse:1.1":"denied"}');
    const t = await b.run(['hooks', 'test', 'PreToolUse.hooktest.yaml']);
    expect(t.code, t.stdout + t.stderr).toBe(0);
    expect(t.stdout).toContain('1 passed, 0 failed');
  });

  it('rule 1: --dialect names a catalog the event must be in (unknown_event, exit 2)', async () => {
    const b = box();
    const notInCodex = await b.run(['hooks', 'fire', 'Notification', '--dialect', 'codex']);
    expect(notInCodex.code).toBe(2);
    expect(notInCodex.stderr.trim()).toBe(
      'hookctl: unknown event "Notification" for dialect "codex" (see: hookctl hooks events --dialect codex)',
    );
    const notInClaude = await b.run(['hooks', 'fire', 'Interrupt', '--dialect', 'claude', '--json']);
    expect(notInClaude.code).toBe(2);
    expect(json(notInClaude.stdout).error.code).toBe('unknown_event');
  });

  it('rule 3: an event claude and codex both declare is ambiguous (exit 2), naming both; --dialect decides', async () => {
    const b = box();
    b.codex(b.one('PermissionRequest', 'true'));
    b.claude(b.one('PermissionRequest', 'true'));
    const amb = await b.run(['hooks', 'fire', 'PermissionRequest']);
    expect(amb.code).toBe(2);
    expect(amb.stderr.trim()).toBe(
      'hookctl: event "PermissionRequest" is declared in more than one dialect (claude, codex); pass --dialect claude or --dialect codex',
    );
    const dry = await b.run(['hooks', 'fire', 'PermissionRequest', '--dry-run', '--json']);
    expect(dry.code).toBe(2);
    expect(json(dry.stdout).error.code).toBe('ambiguous_dialect');
    const codex = await b.run(['hooks', 'fire', 'PermissionRequest', '--dialect', 'codex', '-o', 'json']);
    expect(codex.code, codex.stderr).toBe(0);
    expect(json(codex.stdout).dialect).toBe('codex');
  });

  it('rule 3: one declaring dialect is used; none falls back to registry order (claude before codex)', async () => {
    const b = box();
    b.codex(b.one('SubagentStop', 'true'));
    const codex = await b.run(['hooks', 'fire', 'SubagentStop', '--dry-run', '-o', 'json']);
    expect(codex.code, codex.stderr).toBe(0);
    expect(json(codex.stdout).dialect).toBe('codex');
    const none = await b.run(['hooks', 'fire', 'PostCompact', '--dry-run', '-o', 'json']);
    expect(none.code, none.stderr).toBe(0);
    expect(json(none.stdout).dialect).toBe('claude');
  });

  it('rule 3: a codex file that does not parse counts as declaring every codex event; a lone one makes fire refuse', async () => {
    const b = box();
    b.codex('{"hooks": {"Stop": [');
    b.claude(b.one('PreCompact', 'true'));
    // claude declares PreCompact; the broken codex file might too: never handed over silently.
    const amb = await b.run(['hooks', 'fire', 'PreCompact']);
    expect(amb.code).toBe(2);
    expect(amb.stderr).toContain('is declared in more than one dialect (claude, codex)');
    // Only codex may declare SubagentStart here: codex is chosen and fire refuses, listing the error.
    const refused = await b.run(['hooks', 'fire', 'SubagentStart']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refusing to fire "SubagentStart": 1 declaration error');
    expect(refused.stderr).toContain('.codex/hooks.json:1: invalid JSON');
    const skip = await b.run(['hooks', 'fire', 'SubagentStart', '--skip-invalid', '-o', 'json']);
    expect(skip.code, skip.stderr).toBe(0);
    expect(json(skip.stdout)).toMatchObject({ dialect: 'codex', verdict: 'pass', runs: [] });
    expect(skip.stderr).toContain('warning: skipped (invalid): .codex/hooks.json:1: invalid JSON');
  });
});

describe('codex: a codex fire reads codex sources only (§7)', () => {
  it('a broken claude file neither stops a codex fire nor takes Interrupt; it does take an event codex does not declare', async () => {
    const b = box();
    b.claude('{broken');
    b.codex(b.one('Interrupt', 'true'));
    const codex = await b.run(['hooks', 'fire', 'Stop', '--dialect', 'codex', '-o', 'json']);
    expect(codex.code, codex.stderr).toBe(0);
    expect(json(codex.stdout)).toMatchObject({ dialect: 'codex', verdict: 'pass', runs: [] });
    const interrupt = await b.run(['hooks', 'fire', 'Interrupt', '-o', 'json']);
    expect(interrupt.code, interrupt.stderr).toBe(0);
    expect(json(interrupt.stdout).dialect).toBe('codex');
    // Stop: codex declares none, the broken claude file might: claude is chosen, and refuses.
    const stop = await b.run(['hooks', 'fire', 'Stop']);
    expect(stop.code).toBe(2);
    expect(stop.stderr).toContain('refusing to fire "Stop"');
    expect(stop.stderr).toContain('.claude/settings.json:1: invalid JSON');
  });
});

describe('codex: sessions and exit codes of a fire (§5.1, §7 runs, §8)', () => {
  it("records under --session, else the payload's session_id, else a new UUID v4", async () => {
    const b = box();
    b.codex(b.one('Stop', 'true'));
    const given = await b.run(['hooks', 'fire', 'Stop', '-o', 'json'], '{"session_id":"from-payload"}');
    expect(json(given.stdout).session_id).toBe('from-payload');
    const flag = await b.run(['hooks', 'fire', 'Stop', '--session', 'from-flag', '-o', 'json'], '{"session_id":"p"}');
    expect(json(flag.stdout)).toMatchObject({ session_id: 'from-flag', payload: { session_id: 'from-flag' } });
    const fresh = await b.run(['hooks', 'fire', 'Stop', '-o', 'json']);
    const id = json(fresh.stdout).session_id as string;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(json(fresh.stdout).payload.session_id).toBe(id);
  });

  it('hooks runs reads the most recently written session of any dialect: a codex one after a claude one', async () => {
    const b = box();
    b.claude(b.one('Notification', 'true'));
    b.codex(b.one('Stop', `echo '{"decision":"block","reason":"again"}'`));
    const claude = await b.run(['hooks', 'fire', 'Notification', '--session', 'claude-s'], '{"message":"m"}');
    expect(claude.code, claude.stderr).toBe(0);
    const codex = await b.run(['hooks', 'fire', 'Stop', '--trust-all', '--session', 'codex-s']);
    expect(codex.code, codex.stderr).toBe(1); // block
    const runs = await b.run(['hooks', 'runs', '-o', 'json']);
    expect(runs.code, runs.stderr).toBe(0);
    const records = json(runs.stdout) as unknown as Record<string, unknown>[];
    expect(records.map((r) => [r.dialect, r.session_id, r.outcome, r.decision, r.codex_status])).toEqual([
      ['codex', 'codex-s', 'denied', 'block', 'blocked'],
    ]);
  });

  it("hooks runs and hooks info say why a codex run was skipped (the record's why), never a blank row", async () => {
    const b = box();
    b.codex(b.one('Stop', 'true'));
    const fire = await b.run(['hooks', 'fire', 'Stop', '--session', 'why-s']);
    expect(fire.code, fire.stderr).toBe(0);
    const why = /untrusted: hook has not been trusted \(current hash sha256:[0-9a-f]{64}\)/;
    const runs = await b.run(['hooks', 'runs']);
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout).toMatch(why);
    const info = await b.run(['hooks', 'info', 'project/.codex/hooks.json:Stop:1.1']);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).toMatch(why);
  });

  it('exit 3 when the dispatch depth is exceeded; a skipped untrusted hook never changes the exit code', async () => {
    const b = box();
    b.codex(b.one('Stop', `echo '{"decision":"block","reason":"again"}'`));
    const untrusted = await b.run(['hooks', 'fire', 'Stop']);
    expect(untrusted.code, untrusted.stderr).toBe(0);
    const deep = await runCli(['hooks', 'fire', 'Stop', '--trust-all'], {
      env: { ...b.env, HOOKCTL_DISPATCH_DEPTH: '3' },
      cwd: b.ws,
      input: '{}',
      timeoutMs: 60_000,
    });
    expect(deep.code, deep.stderr).toBe(3);
    expect(deep.stderr).not.toMatch(/\n\s+at /); // one line, no stack trace
  });
});
