// Human output and wording points of issue 16 (SPEC §7.1, §7.4), on the built CLI: unknown
// sessions and --event patterns, validate -o jsonl, a YAML collection key, the torn-line note,
// one run-id form, one way to show a skill source, create --secret-env and the secret refusal.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoCopy, demoDir, isolatedEnv, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

describe('sessions and --event patterns a user typed', { timeout: 120_000 }, () => {
  it('an unknown --session: runs and info say so, exit 1', async () => {
    const { env, W } = demoCopy();
    const [runs, info, json] = await Promise.all([
      runCli(['hooks', 'runs', '--session', 'sess_typo'], { env }),
      runCli(['hooks', 'info', 'prompt-style', ...W, '--session', 'sess_typo'], { env }),
      runCli(['hooks', 'runs', '--session', 'sess_typo', '--json'], { env }),
    ]);
    for (const r of [runs, info]) {
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe('hookctl: no runs recorded for session "sess_typo" (see: hookctl hooks sessions)');
    }
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'session_not_found', exit: 1 });
  });

  it('an invalid --event pattern is exit 2; one that matches no known event warns with the closest', async () => {
    const { env, W } = demoCopy();
    const [listBad, runsBad, listNone, runsNone] = await Promise.all([
      runCli(['hooks', 'list', ...W, '--event', 'tool.[pre'], { env }),
      runCli(['hooks', 'runs', '--event', 'tool.[pre'], { env }),
      runCli(['hooks', 'list', ...W, '--event', 'tool.pre_cal'], { env }),
      runCli(['hooks', 'runs', '--event', 'PreTool*x', '-o', 'json'], { env }),
    ]);
    for (const r of [listBad, runsBad]) {
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe('hookctl: invalid --event pattern "tool.[pre": syntax error in pattern');
    }
    expect(listNone.code).toBe(0);
    expect(listNone.stderr).toContain(
      'hookctl: warning: no known event matches "tool.pre_cal"; did you mean "tool.pre_call"?',
    );
    expect(runsNone.code).toBe(0);
    expect(runsNone.stderr).toContain('no known event matches "PreTool*x"');
  });
});

describe('validate', { timeout: 120_000 }, () => {
  it('-o jsonl prints one diagnostic object per line', async () => {
    const broken = join(demoDir, '..', 'broken');
    const benv = isolatedEnv({
      compozyHome: join(broken, 'home', '.compozy'),
      coshHome: join(broken, 'home', '.copilot-shell'),
      systemRoot: join(broken, 'system'),
    });
    const [jsonl, json] = await Promise.all([
      runCli(['hooks', 'validate', '--workspace', join(broken, 'workspace'), '-o', 'jsonl'], { env: benv }),
      runCli(['hooks', 'validate', '--workspace', join(broken, 'workspace'), '-o', 'json'], { env: benv }),
    ]);
    expect(jsonl.code).toBe(1);
    const lines = jsonl.stdout.trimEnd().split('\n');
    const doc = JSON.parse(json.stdout) as { diagnostics: unknown[] };
    expect(lines.length).toBe(doc.diagnostics.length);
    expect(lines.map((l) => JSON.parse(l))).toEqual(doc.diagnostics);
  });

  it('a YAML key that is a list or map is a diagnostic, not a Node warning', async () => {
    const base = tempDir('hookctl-yamlkey-');
    const skill = join(base, 'ws', '.compozy', 'skills', 'odd');
    mkdirSync(skill, { recursive: true });
    writeFileSync(
      join(skill, 'SKILL.md'),
      '---\nname: odd\n? [a, b]\n: 1\nmetadata:\n  compozy:\n    hooks:\n      - event: tool.pre_call\n        command: /bin/true\n---\n',
    );
    const env = isolatedEnv({ home: base });
    const [v, list] = await Promise.all([
      runCli(['hooks', 'validate', '--workspace', join(base, 'ws'), '-o', 'json'], { env }),
      runCli(['hooks', 'list', '--workspace', join(base, 'ws')], { env }),
    ]);
    expect(v.code).toBe(1);
    expect(JSON.parse(v.stdout).diagnostics).toEqual([
      expect.objectContaining({
        code: 'yaml_parse_error',
        line: 3,
        message: 'invalid YAML front matter: a key must be a plain value, not a list or map',
      }),
    ]);
    for (const r of [v, list]) expect(r.stderr).not.toMatch(/Keys with collection values|\(node:\d+\)/);
  });
});

describe('wording', { timeout: 120_000 }, () => {
  it('runs: "1 line that is not valid JSON"; both dialects write run ids of one form', async () => {
    const { base, env, W } = demoCopy();
    const P = join(base, 'payloads');
    const [compozy, cosh] = await Promise.all([
      runCli(
        [
          'hooks',
          'fire',
          'tool.pre_call',
          ...W,
          '--payload',
          join(P, 'tool-safe.json'),
          '--session',
          'w',
          '-o',
          'json',
        ],
        { env },
      ),
      runCli(
        ['hooks', 'fire', 'PreToolUse', ...W, '--payload', join(P, 'cosh-ls.json'), '--session', 'w', '-o', 'json'],
        { env },
      ),
    ]);
    const ids = [...JSON.parse(compozy.stdout).runs, ...JSON.parse(cosh.stdout).runs].map(
      (r: { run_id: string }) => r.run_id,
    );
    expect(ids.length).toBeGreaterThan(1);
    for (const id of ids) expect(id).toMatch(/^run_[0-9a-z]{9}[0-9a-f]{16}$/);
    appendFileSync(join(base, 'home', '.compozy', 'sessions', 'w', 'hook-runs.jsonl'), '{"torn": ');
    const runs = await runCli(['hooks', 'runs', '--session', 'w'], { env });
    expect(runs.stderr).toContain('skipped 1 line that is not valid JSON');
  });

  it('a skill source is shown as skill/<source> in list and info alike', async () => {
    const { env, W } = demoCopy();
    const [list, info] = await Promise.all([
      runCli(['hooks', 'list', ...W], { env }),
      runCli(['hooks', 'info', 'input-tidy', ...W], { env }),
    ]);
    expect(list.stdout).toMatch(/input-tidy\s+input\.pre_submit\s+skill\/user\s/);
    expect(info.stdout).toMatch(/^\s+source\s+skill\/user$/m);
  });

  it('create --secret-env NAME=env:VAR writes secret_env; a secret in --env is refused naming the key', async () => {
    const { base, env, W } = demoCopy();
    const created = await runCli(
      [
        'hooks',
        'create',
        'notify-ops',
        ...W,
        '--event',
        'session.post_create',
        '--command',
        '/bin/true',
        '--secret-env',
        'SLACK_TOKEN=env:OPS_SLACK_TOKEN',
      ],
      { env },
    );
    expect(created.code, created.stderr).toBe(0);
    const config = readFileSync(join(base, 'workspace', '.compozy', 'config.toml'), 'utf8');
    expect(config).toMatch(
      /secret_env = \{ SLACK_TOKEN = "env:OPS_SLACK_TOKEN" \}|SLACK_TOKEN = "env:OPS_SLACK_TOKEN"/,
    );
    const help = await runCli(['hooks', 'create', '--help'], { env });
    expect(help.stdout).toContain('--secret-env');
    const refused = await runCli(
      [
        'hooks',
        'create',
        'leaky',
        ...W,
        '--event',
        'session.post_create',
        '--command',
        '/bin/true',
        '--env',
        'API_TOKEN=abc',
      ],
      { env },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')[0]).toBe(
      'hookctl: hook executor env contains a forbidden secret-bearing input: env "API_TOKEN" (use --secret-env API_TOKEN=env:VAR)',
    );
    const badRef = await runCli(
      [
        'hooks',
        'create',
        'x',
        ...W,
        '--event',
        'session.post_create',
        '--command',
        '/bin/true',
        '--secret-env',
        'K=plain',
      ],
      { env },
    );
    expect(badRef.code).toBe(2);
  });

  it('a name the target file lacks is refused in plain words too, naming the file', async () => {
    const { env, W } = demoCopy();
    const r = await runCli(['hooks', 'delete', 'nope', ...W], { env });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toMatch(
      /^hookctl: hook "nope" not found in target config overlay \(workspace config \S+config\.toml has no declaration of that name\)$/,
    );
  });
});
