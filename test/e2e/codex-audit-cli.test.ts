// Audit of codex.md §1 and §7 through the built CLI: the rules the first e2e tests left
// unchecked. validate FILE of a codex plugin's hook file (codex judges it even though claude reads
// it too) and of the files directly in $CODEX_HOME and the system dir; --additional-dir adds no
// codex source; create's --scope aliases and --file default; enable/disable of requirements.toml
// hooks; trusting a hook a gate keeps from running; state edits of a config.toml that does not parse.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

let root: string;
let ws: string;
let env: Record<string, string>;
beforeEach(() => {
  root = tempDir('hookctl-e2e-codex-audit-');
  ws = join(root, 'ws');
  mkdirSync(join(ws, '.git'), { recursive: true });
  env = isolatedEnv({ home: join(root, 'home') });
});

const write = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
};
const read = (file: string) => readFileSync(file, 'utf8');
const cli = (args: string[]) => runCli(['hooks', ...args, '--workspace', ws], { env, cwd: root });
const codexHome = () => env.CODEX_HOME!;
const systemDir = () => env.HOOKCTL_CODEX_SYSTEM_DIR!;
const stopJson = (handler: object) => JSON.stringify({ hooks: { Stop: [{ hooks: [handler] }] } }) + '\n';
const diagnostics = (stdout: string) =>
  (JSON.parse(stdout) as { diagnostics: { code: string; hook?: string; file: string }[] }).diagnostics;

describe('codex validate FILE by place (codex.md §7)', { timeout: 120_000 }, () => {
  it("a codex plugin's hooks/hooks.json is judged by codex's rules, named as the plugin's hook", async () => {
    const plugin = join(root, 'plug');
    write(join(plugin, '.codex-plugin', 'plugin.json'), '{"name":"demo"}\n');
    const file = write(join(plugin, 'hooks', 'hooks.json'), stopJson({ type: 'prompt', prompt: 'check' }));
    const r = await cli(['validate', file, '-o', 'json']);
    expect(r.code, r.stdout).toBe(1);
    expect(diagnostics(r.stdout)).toContainEqual(
      expect.objectContaining({
        code: 'codex_handler_unsupported',
        hook: 'plugin/demo/hooks/hooks.json:Stop:1.1',
      }),
    );
  });

  it('hooks.json and config.toml directly in $CODEX_HOME and the system dir are codex files', async () => {
    const files = [
      write(join(codexHome(), 'hooks.json'), stopJson({ type: 'agent', prompt: 'x' })),
      write(join(codexHome(), 'config.toml'), '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "agent"\n'),
      write(join(systemDir(), 'hooks.json'), stopJson({ type: 'command', command: ' ' })),
      write(join(systemDir(), 'config.toml'), '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "prompt"\n'),
    ];
    const r = await cli(['validate', ...files, '-o', 'json']);
    expect(r.code, r.stdout).toBe(1);
    const errors = diagnostics(r.stdout).filter((d) => !d.code.startsWith('codex_both'));
    expect(errors.map((d) => [d.hook, d.code]).sort()).toEqual([
      ['system/config.toml:Stop:1.1', 'codex_handler_unsupported'],
      ['system/hooks.json:Stop:1.1', 'codex_empty_command'],
      ['user/config.toml:Stop:1.1', 'codex_handler_unsupported'],
      ['user/hooks.json:Stop:1.1', 'codex_handler_unsupported'],
    ]);
  });
});

describe('codex sources and the shared flags (codex.md §1)', { timeout: 120_000 }, () => {
  it('--additional-dir adds no codex source', async () => {
    const extra = join(root, 'extra');
    write(join(extra, '.codex', 'hooks.json'), stopJson({ type: 'command', command: './extra.sh' }));
    write(join(codexHome(), 'hooks.json'), stopJson({ type: 'command', command: './user.sh' }));
    const r = await cli(['list', '--dialect', 'codex', '--all', '--additional-dir', extra, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { label: string }[]).map((d) => d.label)).toEqual(['./user.sh']);
  });
});

describe('codex edits: scopes, files and managed sources (codex.md §7)', { timeout: 120_000 }, () => {
  it('--scope global is the user layer, workspace the project; --file defaults to the file that holds hooks', async () => {
    const userToml = write(
      join(codexHome(), 'config.toml'),
      '# mine\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "./old.sh"\n',
    );
    const g = await cli([
      'create',
      '--dialect',
      'codex',
      '--event',
      'Stop',
      '--command',
      './g.sh',
      '--scope',
      'global',
    ]);
    expect(g.code, g.stderr).toBe(0);
    // It joins the first Stop group with no matcher, as Codex's own layout would.
    expect(g.stdout).toContain('user/config.toml:Stop:1.2');
    expect(read(userToml)).toContain('command = "./g.sh"');
    // The project layer holds no hooks yet: hooks.json, created with its folder.
    const w = await cli([
      'create',
      '--dialect',
      'codex',
      '--event',
      'Stop',
      '--command',
      './w.sh',
      '--scope',
      'workspace',
    ]);
    expect(w.code, w.stderr).toBe(0);
    expect(w.stdout).toContain('project/.codex/hooks.json:Stop:1.1');
    expect(JSON.parse(read(join(ws, '.codex', 'hooks.json')))).toEqual({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: './w.sh' }] }] },
    });
    // A user config.toml with other settings only holds no hooks: hooks.json is the default.
    write(userToml, 'model = "o3"\n');
    const u = await cli(['create', '--dialect', 'codex', '--event', 'Stop', '--command', './u.sh', '--scope', 'user']);
    expect(u.code, u.stderr).toBe(0);
    expect(u.stdout).toContain('user/hooks.json:Stop:1.1');
    expect(read(userToml)).toBe('model = "o3"\n');
  });

  it('requirements.toml hooks cannot be enabled, disabled or edited', async () => {
    write(
      join(systemDir(), 'requirements.toml'),
      '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "./m.sh"\n',
    );
    const name = 'managed/requirements.toml:Stop:1.1';
    for (const args of [
      ['enable', name],
      ['disable', name],
      ['delete', name],
      ['update', name, '--timeout', '3'],
    ]) {
      const r = await cli([...args, '-o', 'json']);
      expect(r.code, args.join(' ')).toBe(1);
      expect(JSON.parse(r.stdout).error).toMatchObject({
        code: 'hook_source_immutable',
        message: `hook "${name}" source "codex_managed" is immutable by tools`,
      });
    }
  });

  it('trusting a hook that a gate keeps from running records the hash and warns that it still will not run', async () => {
    write(join(ws, '.codex', 'hooks.json'), stopJson({ type: 'command', command: './p.sh' }));
    const name = 'project/.codex/hooks.json:Stop:1.1';
    const r = await cli(['trust', name]);
    expect(r.code, r.stderr).toBe(0);
    expect(read(join(codexHome(), 'config.toml'))).toContain('trusted_hash = "sha256:');
    expect(r.stderr).toContain(
      `warning: ${name} is blocked: project "${ws}" is not trusted (projects."${ws}".trust_level in ${join(codexHome(), 'config.toml')}); trusting it does not make it run`,
    );
  });

  it('trust, enable and disable refuse a user config.toml that does not parse, naming its line, and leave it alone', async () => {
    write(join(codexHome(), 'hooks.json'), stopJson({ type: 'command', command: './a.sh' }));
    const config = write(join(codexHome(), 'config.toml'), 'model = \n');
    const name = 'user/hooks.json:Stop:1.1';
    for (const args of [
      ['trust', name],
      ['disable', name],
      ['enable', name],
    ]) {
      const r = await cli([...args, '-o', 'json']);
      expect(r.code, args.join(' ')).toBe(1);
      expect(JSON.parse(r.stdout).error).toMatchObject({
        code: 'hook_validation_failed',
        diagnostics: [expect.objectContaining({ code: 'toml_parse_error', file: config, line: 1 })],
      });
    }
    expect(read(config)).toBe('model = \n');
  });
});
