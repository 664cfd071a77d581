// The codex dialect's read side through the built CLI (codex.md §1, §2, §7): list with its
// columns and fields, --untrusted, --all statuses, info with the hashed identity, validate of
// every source and of named files, and the shared github/sarif report formats.
import { join, relative } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { CODEX_DIAGNOSTIC_CODES } from '../../src/dialects/codex/codes.js';
import { isolatedEnv, runCli } from '../support/cli.js';
import { codexHooksJson, makeCodexTree, trustProject, type CodexTree } from '../support/codex-tree.js';

let t: CodexTree;
let env: Record<string, string>;
beforeEach(() => {
  t = makeCodexTree();
  env = { ...isolatedEnv({ home: join(t.base, 'home') }), ...(t.env as Record<string, string>) };
});

const W = () => ['--workspace', t.workspace];
const cli = (args: string[]) => runCli(args, { env, cwd: t.base });
const listJson = async (...extra: string[]) => {
  const r = await cli(['hooks', 'list', ...W(), '--dialect', 'codex', '-o', 'json', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>[];
};

/** A user hooks.json with a trusted guard and an untrusted Stop hook, and a blocked project. */
function setup(): { userJson: string } {
  const userJson = t.write(
    'home/.codex/hooks.json',
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: '^Bash$',
            hooks: [{ type: 'command', command: '~/bin/guard.sh', timeout: 10, statusMessage: 'checking' }],
          },
        ],
        Stop: [{ hooks: [{ type: 'command', command: 'echo done' }] }],
      },
    }),
  );
  t.write(
    'home/.codex/config.toml',
    `[hooks.state.${JSON.stringify(`${userJson}:pre_tool_use:0:0`)}]\n` +
      'trusted_hash = "sha256:96bbba10acb318dc0ae335debebc2e6cbb9e5e71ae59e1036eb72b0a384797c5"\n',
  );
  t.write('proj/.codex/hooks.json', codexHooksJson('Stop', { type: 'command', command: 'project stop' }));
  return { userJson };
}

describe('codex list and info', { timeout: 120_000 }, () => {
  it('list: dispatch order, the codex fields of §7, and the human columns', async () => {
    const { userJson } = setup();
    const entries = await listJson();
    expect(entries.map((e) => [e.order, e.name, e.trust])).toEqual([
      [1, 'user/hooks.json:PreToolUse:1.1', 'trusted'],
      [1, 'user/hooks.json:Stop:1.1', 'untrusted'],
    ]);
    expect(entries[0]).toMatchObject({
      dialect: 'codex',
      source: 'codex_user',
      mode: 'sync',
      required: false,
      priority: null,
      timeout_ms: 10000,
      executor_kind: 'command',
      matcher: '^Bash$',
      metadata: {},
      enabled: true,
      location: { file: relative(t.base, userJson), line: 1 },
      handler_type: 'command',
      label: '~/bin/guard.sh',
      status_message: 'checking',
      plugin: null,
      key: `${userJson}:pre_tool_use:0:0`,
      current_hash: 'sha256:96bbba10acb318dc0ae335debebc2e6cbb9e5e71ae59e1036eb72b0a384797c5',
      trusted_hash: 'sha256:96bbba10acb318dc0ae335debebc2e6cbb9e5e71ae59e1036eb72b0a384797c5',
      runnable: true,
    });
    expect(entries[1]).toMatchObject({ matcher: null, trusted_hash: null, timeout_ms: 600000 });

    const human = await cli(['hooks', 'list', ...W(), '--dialect', 'codex']);
    expect(human.code, human.stderr).toBe(0);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines[0]!.split(/\s{2,}/)).toEqual(['Order', 'Name', 'Event', 'Matcher', 'Trust', 'Label']);
    expect(lines[1]!.split(/\s{2,}/)).toEqual([
      '1',
      'user/hooks.json:PreToolUse:1.1',
      'PreToolUse',
      '^Bash$',
      'trusted',
      '~/bin/guard.sh',
    ]);
  });

  it('list --untrusted keeps the untrusted and modified hooks', async () => {
    setup();
    const entries = await listJson('--untrusted');
    expect(entries.map((e) => e.name)).toEqual(['user/hooks.json:Stop:1.1']);
  });

  it('list --all: the blocked project layer, with why', async () => {
    setup();
    const entries = await listJson('--all');
    const project = entries.find((e) => e.source === 'codex_project')!;
    expect(project).toMatchObject({
      name: 'project/.codex/hooks.json:Stop:1.1',
      status: 'blocked',
      why: `project "${t.projectRoot}" is not trusted (projects."${t.projectRoot}".trust_level in ${join(t.codexHome, 'config.toml')})`,
      order: null,
    });
  });

  it('a trusted project is listed; its hooks are untrusted until reviewed', async () => {
    setup();
    t.write('home/.codex/config.toml', trustProject(t.projectRoot));
    const entries = await listJson();
    expect(entries.map((e) => [e.name, e.trust])).toContainEqual(['project/.codex/hooks.json:Stop:1.1', 'untrusted']);
  });

  it('info NAME: the handler as written, the key, the hashed identity and both hashes', async () => {
    const { userJson } = setup();
    const r = await cli(['hooks', 'info', 'user/hooks.json:PreToolUse:1.1', ...W(), '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout).declarations[0];
    expect(info).toMatchObject({
      name: 'user/hooks.json:PreToolUse:1.1',
      handler: { type: 'command', command: '~/bin/guard.sh', timeout: 10, statusMessage: 'checking' },
      key: `${userJson}:pre_tool_use:0:0`,
      hash_input:
        '{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"~/bin/guard.sh","statusMessage":"checking","timeout":10,"type":"command"}],"matcher":"^Bash$"}',
      current_hash: 'sha256:96bbba10acb318dc0ae335debebc2e6cbb9e5e71ae59e1036eb72b0a384797c5',
      trust: 'trusted',
    });
    // the human info says the same
    const human = await cli(['hooks', 'info', 'user/hooks.json:PreToolUse:1.1', ...W()]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^ {2}trust {7}trusted$/m);
    expect(human.stdout).toContain(`  key         ${userJson}:pre_tool_use:0:0\n`);
    expect(human.stdout).toMatch(/^ {2}hash {8}sha256:96bbba10acb3\w+$/m);
    expect(human.stdout).toMatch(/^ {2}trusted {5}sha256:96bbba10acb3\w+$/m);
    expect(human.stdout).toContain('  hash_input  {"event_name":"pre_tool_use",');
  });

  it('an invalid hook shows in list --all and info with its diagnostics', async () => {
    t.write('home/.codex/hooks.json', codexHooksJson('Stop', { type: 'command', command: ' ' }));
    const [entry] = await listJson('--all');
    expect(entry).toMatchObject({ status: 'invalid', why: 'hook command is empty; Codex skips it', runnable: false });
    const r = await cli(['hooks', 'info', 'user/hooks.json:Stop:1.1', ...W(), '-o', 'json']);
    const [decl] = JSON.parse(r.stdout).declarations;
    expect(decl).toMatchObject({ status: 'invalid', diagnostics: [{ code: 'codex_empty_command', line: 8 }] });
  });
});

describe('codex validate', { timeout: 120_000 }, () => {
  const validateJson = async (...args: string[]) => {
    const r = await cli(['hooks', 'validate', ...W(), '--dialect', 'codex', '-o', 'json', ...args]);
    return { code: r.code, report: JSON.parse(r.stdout) as { diagnostics: Record<string, unknown>[] } };
  };

  it('every source: errors make exit 1; trust warnings do not', async () => {
    setup();
    const ok = await validateJson();
    expect(ok.code).toBe(0);
    expect(ok.report.diagnostics.map((d) => d.code).sort()).toEqual(['codex_project_untrusted', 'codex_untrusted']);
    t.write(
      'home/.codex/config.toml',
      '[[hooks.Stop]]\nmatcher = 1\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "x"\n',
    );
    const bad = await validateJson();
    expect(bad.code).toBe(1);
    expect(bad.report.diagnostics).toContainEqual(
      expect.objectContaining({
        code: 'codex_file_rejected',
        severity: 'error',
        message: 'Codex cannot load this file: hooks.Stop[0].matcher must be a string',
        file: relative(t.base, join(t.codexHome, 'config.toml')),
        line: 2,
        hook: 'user/config.toml:Stop:1.1',
      }),
    );
  });

  it('--format github and sarif through the shared report code', async () => {
    t.write('home/.codex/hooks.json', '{"hooks": {"Stopp": []}}');
    const gh = await cli(['hooks', 'validate', ...W(), '--dialect', 'codex', '--format', 'github']);
    expect(gh.code).toBe(1);
    expect(gh.stdout).toContain('title=codex_unknown_event::unknown hook event "Stopp"; did you mean "Stop"?');
    const sarif = await cli(['hooks', 'validate', ...W(), '--dialect', 'codex', '--format', 'sarif']);
    const run = JSON.parse(sarif.stdout).runs[0];
    expect(run.tool.driver.rules).toContainEqual(
      expect.objectContaining({
        id: 'codex_unknown_event',
        shortDescription: { text: CODEX_DIAGNOSTIC_CODES.codex_unknown_event },
      }),
    );
    expect(run.results[0]).toMatchObject({ ruleId: 'codex_unknown_event', level: 'error' });
  });

  it('validate FILE: .codex/hooks.json, requirements.toml and a plugin manifest are codex files', async () => {
    const elsewhere = t.write('other/.codex/hooks.json', codexHooksJson('Stop', { type: 'agent', prompt: 'x' }));
    const req = t.write(
      'x/requirements.toml',
      '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ntimeout = -1\ncommand = "x"\n',
    );
    const manifest = t.write('plug/.codex-plugin/plugin.json', JSON.stringify({ name: 'p', hooks: '../out.json' }));
    const r = await cli(['hooks', 'validate', elsewhere, req, manifest, '-o', 'json']);
    expect(r.code).toBe(1);
    const ds = (JSON.parse(r.stdout) as { diagnostics: { code: string; file: string }[] }).diagnostics;
    expect(ds.map((d) => [d.code, d.file]).sort()).toEqual(
      [
        ['codex_handler_unsupported', elsewhere],
        ['codex_file_rejected', req],
        ['path_escapes_root', manifest],
      ]
        .map(([code, file]) => [code, relative(t.base, file!)])
        .sort(),
    );
  });

  it('validate FILE of a loaded source reports what the catalog reports, trust included', async () => {
    const { userJson } = setup();
    const r = await cli(['hooks', 'validate', userJson, ...W(), '-o', 'json']);
    expect(r.code, r.stdout).toBe(0);
    const ds = (JSON.parse(r.stdout) as { diagnostics: { code: string; hook?: string }[] }).diagnostics;
    expect(ds.map((d) => [d.code, d.hook])).toEqual([['codex_untrusted', 'user/hooks.json:Stop:1.1']]);
  });
});
