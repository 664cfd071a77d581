// The codex.md §7 edit commands through the built CLI on temp workspaces: create into an empty
// project and into existing hooks.json and config.toml (every other byte kept), --dry-run diffs,
// update with --unset and a matcher move, delete, immutable sources, usage errors, hooks trust,
// enable/disable through [hooks.state], the trust notes, and writes that keep a symlink.
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

let root: string;
let ws: string;
let env: Record<string, string>;
beforeEach(() => {
  root = tempDir('hookctl-e2e-codex-edit-');
  ws = join(root, 'ws');
  mkdirSync(join(ws, '.git'), { recursive: true });
  env = isolatedEnv({ home: join(root, 'home') });
});

const codexHome = () => env.CODEX_HOME!;
const userConfig = () => join(codexHome(), 'config.toml');
const write = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};
const read = (file: string) => readFileSync(file, 'utf8');
const cli = (args: string[]) => runCli(['hooks', ...args, '--workspace', ws], { env, cwd: root });
const projectJson = () => join(ws, '.codex', 'hooks.json');
const projectToml = () => join(ws, '.codex', 'config.toml');
/** Project layers load only in a trusted project (codex.md §1). */
const trustProject = () => write(userConfig(), `[projects."${ws}"]\ntrust_level = "trusted"\n`);

const HOOKS_JSON =
  '{\r\n    "description": "team hooks",\r\n    "hooks": {\r\n        "Stop": [ { "hooks": [ { "type": "command", "command": "./stop.sh" } ] } ],\r\n        "PreToolUse": [\r\n            { "matcher": "^Bash$", "hooks": [ { "type": "command", "command": "./guard.sh" } ] }\r\n        ]\r\n    }\r\n}\r\n';

const CONFIG_TOML = `# project codex settings
model = "o3"

[[hooks.PreToolUse]]
matcher = "^Bash$"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "./guard.sh" # keep me
timeout = 10

[sandbox]
mode = "workspace-write"
`;

describe('codex edits', { timeout: 120_000 }, () => {
  it('create into an empty project makes .codex/hooks.json with 2-space indentation and says it is untrusted', async () => {
    const r = await cli([
      'create',
      '--dialect',
      'codex',
      '--event',
      'PreToolUse',
      '--matcher',
      '^Bash$',
      '--command',
      './g.sh',
      '--timeout',
      '10',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const name = 'project/.codex/hooks.json:PreToolUse:1.1';
    expect(r.stdout.trim()).toBe(`created hook "${name}" in ${join('ws', '.codex', 'hooks.json')}`);
    expect(r.stderr).toContain(
      `note: ${name} is not trusted yet; Codex skips it until trusted (hookctl hooks trust ${name})`,
    );
    expect(read(projectJson())).toBe(
      '{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "^Bash$",\n        "hooks": [\n          {\n            "type": "command",\n            "command": "./g.sh",\n            "timeout": 10\n          }\n        ]\n      }\n    ]\n  }\n}\n',
    );
    // Interrupt is codex's alone: no --dialect needed; --file config.toml writes TOML.
    const i = await cli([
      'create',
      '--event',
      'Interrupt',
      '--command',
      './i.sh',
      '--file',
      'config.toml',
      '-o',
      'json',
    ]);
    expect(i.code, i.stderr).toBe(0);
    expect(JSON.parse(i.stdout)).toMatchObject({
      action: 'create',
      name: 'project/.codex/config.toml:Interrupt:1.1',
      targets: [{ dialect: 'codex', changed: true, created: true }],
    });
    expect(read(projectToml())).toBe(
      '[[hooks.Interrupt]]\n[[hooks.Interrupt.hooks]]\ntype = "command"\ncommand = "./i.sh"\n',
    );
    // The project is not trusted in the user config.toml: Codex would not load the layer at all.
    expect(i.stderr).toContain(`note: project "${ws}" is not trusted; Codex does not load its .codex/ layers`);
  });

  it('create into an existing hooks.json rewrites only the event it changes and keeps CRLF and indentation', async () => {
    trustProject();
    write(projectJson(), HOOKS_JSON);
    const r = await cli([
      'create',
      '--dialect',
      'codex',
      '--event',
      'PreToolUse',
      '--matcher',
      '^Bash$',
      '--command',
      './audit.sh',
      '--async',
      '--status-message',
      'auditing',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('project/.codex/hooks.json:PreToolUse:1.2');
    expect(r.stderr).not.toContain('is not trusted; Codex does not load');
    expect(read(projectJson())).toBe(
      HOOKS_JSON.replace(
        '"command": "./guard.sh" } ]',
        '"command": "./guard.sh" }, {"type": "command", "command": "./audit.sh", "async": true, "statusMessage": "auditing"} ]',
      ),
    );
    const list = JSON.parse((await cli(['list', '--dialect', 'codex', '-o', 'json'])).stdout);
    expect(list.map((d: { name: string }) => d.name)).toContain('project/.codex/hooks.json:PreToolUse:1.2');
  });

  it('create into an existing config.toml appends [[hooks.E]] after the last table of E, byte for byte elsewhere', async () => {
    trustProject();
    write(projectToml(), CONFIG_TOML);
    const r = await cli([
      'create',
      '--dialect',
      'codex',
      '--event',
      'PreToolUse',
      '--matcher',
      'Edit',
      '--command',
      './e.sh',
      '--context-limit',
      '100',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('project/.codex/config.toml:PreToolUse:2.1');
    expect(read(projectToml())).toBe(
      CONFIG_TOML.replace(
        'timeout = 10\n\n',
        'timeout = 10\n\n[[hooks.PreToolUse]]\nmatcher = "Edit"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "./e.sh"\nadditionalContextLimit = 100\n\n',
      ),
    );
  });

  it('a result with a new warning says so on stderr', async () => {
    const r = await cli(['create', '--event', 'Interrupt', '--command', './i.sh', '--timeout', '10']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning: ');
    expect(r.stderr).toContain('Interrupt hook timeout 10s is above the 3s maximum; Codex uses 3s');
  });

  it('--dry-run prints the unified diff and writes nothing', async () => {
    const r = await cli(['create', '--dialect', 'codex', '--event', 'Stop', '--command', './s.sh', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('--- /dev/null');
    expect(r.stdout).toContain('+++ ws/.codex/hooks.json');
    expect(r.stdout).toContain('+            "command": "./s.sh"');
    expect(existsSync(join(ws, '.codex'))).toBe(false);
  });

  it('update sets and unsets fields in place, a new matcher moves the handler, and the notes name the changed hooks', async () => {
    trustProject();
    write(projectToml(), CONFIG_TOML);
    const name = 'project/.codex/config.toml:PreToolUse:1.1';
    const up = await cli(['update', name, '--timeout', '20', '--unset', 'timeout', '--dry-run']);
    expect(up.code).toBe(2);
    const u = await cli(['update', name, '--timeout', '20']);
    expect(u.code, u.stderr).toBe(0);
    expect(read(projectToml())).toBe(CONFIG_TOML.replace('timeout = 10', 'timeout = 20'));
    expect(u.stderr).toContain(`note: Codex will treat ${name} as untrusted or modified until trusted again`);
    const un = await cli(['update', name, '--unset', 'timeout']);
    expect(un.code, un.stderr).toBe(0);
    expect(read(projectToml())).toBe(CONFIG_TOML.replace('timeout = 10\n', ''));
    // A second handler in the group, then a matcher move of the first: it leaves for a new group.
    expect(
      (
        await cli([
          'create',
          '--dialect',
          'codex',
          '--event',
          'PreToolUse',
          '--matcher',
          '^Bash$',
          '--command',
          './two.sh',
        ])
      ).code,
    ).toBe(0);
    const mv = await cli(['update', name, '--matcher', 'Write', '-o', 'json']);
    expect(mv.code, mv.stderr).toBe(0);
    expect(JSON.parse(mv.stdout).name).toBe('project/.codex/config.toml:PreToolUse:2.1');
    expect(mv.stderr).toContain('project/.codex/config.toml:PreToolUse:1.1');
    const list = JSON.parse((await cli(['list', '--dialect', 'codex', '-o', 'json'])).stdout);
    expect(list.map((d: { name: string; matcher: unknown; label: string }) => [d.name, d.label])).toEqual([
      ['project/.codex/config.toml:PreToolUse:1.1', './two.sh'],
      ['project/.codex/config.toml:PreToolUse:2.1', './guard.sh'],
    ]);
  });

  it('delete removes the handler, then an empty group, then an empty event', async () => {
    trustProject();
    write(projectJson(), HOOKS_JSON);
    const d = await cli(['delete', 'project/.codex/hooks.json:Stop:1.1']);
    expect(d.code, d.stderr).toBe(0);
    expect(JSON.parse(read(projectJson()))).toEqual({
      description: 'team hooks',
      hooks: { PreToolUse: [{ matcher: '^Bash$', hooks: [{ type: 'command', command: './guard.sh' }] }] },
    });
    const gone = await cli(['delete', 'project/.codex/hooks.json:Stop:1.1']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('hook "project/.codex/hooks.json:Stop:1.1" not found');
  });

  it('refuses managed sources, a NAME on create, a timeout that is not whole, and a target that does not parse', async () => {
    write(
      join(env.HOOKCTL_CODEX_SYSTEM_DIR!, 'hooks.json'),
      '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./m.sh"}]}]}}\n',
    );
    const managed = 'system/hooks.json:Stop:1.1';
    for (const args of [
      ['update', managed, '--timeout', '3'],
      ['delete', managed],
      ['disable', managed],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toContain(`hook "${managed}" source "codex_system" is immutable by tools`);
    }
    const t = await cli(['trust', managed, '-o', 'json']);
    expect(t.code).toBe(1);
    expect(JSON.parse(t.stdout).error).toEqual({
      code: 'codex_trust_managed',
      message: `hook "${managed}" is managed; Codex trusts it by policy`,
      exit: 1,
    });

    const named = await cli(['create', 'guard', '--dialect', 'codex', '--event', 'Stop', '--command', './x']);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('codex hooks have no names; omit "guard"');
    for (const bad of ['1.5', '-1', 'ten']) {
      const r = await cli(['create', '--dialect', 'codex', '--event', 'Stop', '--command', './x', '--timeout', bad]);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain('--timeout must be a whole number');
    }
    write(projectJson(), '{ "hooks": ');
    const broken = await cli(['create', '--dialect', 'codex', '--event', 'Stop', '--command', './x']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('hook declaration validation failed');
    expect(read(projectJson())).toBe('{ "hooks": ');
    // A result that would not validate: an empty command.
    write(projectJson(), '{}\n');
    const empty = await cli(['create', '--dialect', 'codex', '--event', 'Stop', '--command', ' ', '-o', 'json']);
    expect(empty.code).toBe(1);
    expect(JSON.parse(empty.stdout).error.code).toBe('hook_validation_failed');
    expect(read(projectJson())).toBe('{}\n');
  });

  it('trust writes trusted_hash under [hooks.state."<key>"] of the user config.toml, byte-preserving; --all trusts the rest', async () => {
    const original = '# my settings\nmodel = "o3"\n';
    write(userConfig(), original);
    write(
      join(codexHome(), 'hooks.json'),
      '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./a.sh"},{"type":"command","command":"./b.sh"}]}]}}\n',
    );
    const before = JSON.parse((await cli(['list', '--dialect', 'codex', '-o', 'json'])).stdout);
    const [a, b] = before as { name: string; key: string; current_hash: string; trust: string }[];
    expect([a!.trust, b!.trust]).toEqual(['untrusted', 'untrusted']);
    const one = await cli(['trust', a!.name]);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain(`trusted ${a!.name}`);
    expect(read(userConfig())).toBe(`${original}\n[hooks.state."${a!.key}"]\ntrusted_hash = "${a!.current_hash}"\n`);
    const all = await cli(['trust', '--all', '-o', 'json']);
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout).trusted.map((h: { name: string }) => h.name)).toEqual([b!.name]);
    const after = JSON.parse((await cli(['list', '--dialect', 'codex', '-o', 'json'])).stdout);
    expect(after.map((d: { trust: string }) => d.trust)).toEqual(['trusted', 'trusted']);
    expect((await cli(['list', '--dialect', 'codex', '--untrusted', '-o', 'json'])).stdout.trim()).toBe('[]');
    // Deleting the first shifts the second onto its key: Codex treats it as modified.
    const del = await cli(['delete', a!.name]);
    expect(del.code, del.stderr).toBe(0);
    expect(del.stderr).toContain(`note: Codex will treat ${a!.name} as untrusted or modified until trusted again`);
    // [hooks.state] entries are never moved or deleted by an edit.
    expect(read(userConfig())).toContain(`[hooks.state."${b!.key}"]`);
  });

  it('disable and enable set and remove enabled = false in the user config.toml', async () => {
    write(join(codexHome(), 'hooks.json'), '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./a.sh"}]}]}}\n');
    const name = 'user/hooks.json:Stop:1.1';
    const off = await cli(['disable', name]);
    expect(off.code, off.stderr).toBe(0);
    const key = `${join(codexHome(), 'hooks.json')}:stop:0:0`;
    expect(read(userConfig())).toBe(`[hooks.state."${key}"]\nenabled = false\n`);
    const listed = JSON.parse((await cli(['list', '--dialect', 'codex', '--all', '-o', 'json'])).stdout);
    expect(listed[0]).toMatchObject({ name, status: 'disabled' });
    const on = await cli(['enable', name]);
    expect(on.code, on.stderr).toBe(0);
    expect(read(userConfig())).toBe('');
    const again = await cli(['enable', name]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('no change');
  });

  it('a plugin hook can be disabled and trusted but not edited', async () => {
    const plugin = join(root, 'plug');
    write(join(plugin, '.codex-plugin', 'plugin.json'), '{"name":"demo"}');
    write(
      join(plugin, 'hooks', 'hooks.json'),
      '{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"./p.sh"}]}]}}',
    );
    const name = 'plugin/demo/hooks/hooks.json:PreToolUse:1.1';
    const P = ['--plugin-dir', plugin];
    const off = await cli(['disable', name, ...P]);
    expect(off.code, off.stderr).toBe(0);
    expect(read(userConfig())).toContain('enabled = false');
    const up = await cli(['update', name, '--timeout', '3', ...P]);
    expect(up.code).toBe(1);
    expect(up.stderr).toContain(`hook "${name}" source "codex_plugin" is immutable by tools`);
    expect((await cli(['trust', name, ...P])).code).toBe(0);
    expect(read(userConfig())).toContain('trusted_hash = "sha256:');
  });

  it('writes through a symlinked user config.toml and keeps the link', async () => {
    const real = join(root, 'dotfiles', 'codex.toml');
    write(real, 'model = "o3"\n');
    mkdirSync(codexHome(), { recursive: true });
    symlinkSync(real, userConfig());
    write(join(codexHome(), 'hooks.json'), '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./a.sh"}]}]}}\n');
    const r = await cli(['trust', 'user/hooks.json:Stop:1.1']);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(userConfig()).isSymbolicLink()).toBe(true);
    expect(read(real)).toContain('[hooks.state.');
  });
});
