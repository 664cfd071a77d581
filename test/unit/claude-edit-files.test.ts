import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeClaudeHook, type ClaudeEditRequest } from '../../src/dialects/claude/edit/edit.js';
import { makeClaudeTree, oneHook, type ClaudeTree } from '../support/claude-tree.js';

let t: ClaudeTree;
beforeEach(() => {
  t = makeClaudeTree('hookctl-claude-edit-');
});

const run = (r: Partial<ClaudeEditRequest> & Pick<ClaudeEditRequest, 'action'>) =>
  changeClaudeHook({ dryRun: false, loc: { workspace: t.workspace }, env: t.env, ...r });
const project = () => join(t.workspace, '.claude/settings.json');

describe('claude edits on files', () => {
  it('create makes the file and its .claude folder, and prints the new name', async () => {
    const r = await run({
      action: 'create',
      event: 'PreToolUse',
      matcher: 'Bash',
      fields: { command: './guard.sh', timeout: 10 },
    });
    expect(r).toMatchObject({ name: 'project:PreToolUse:1.1', scope: 'project', changed: true, file: project() });
    expect(r.targets[0]).toMatchObject({ dialect: 'claude', created: true });
    expect(JSON.parse(readFileSync(project(), 'utf8'))).toEqual({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh', timeout: 10 }] }] },
    });
    const again = run({
      action: 'create',
      event: 'PreToolUse',
      matcher: 'Bash',
      fields: { command: './guard.sh', timeout: 10 },
    });
    await expect(again).rejects.toMatchObject({
      code: 'hook_already_exists',
      message: 'an identical hook already exists: project:PreToolUse:1.1',
      exit: 1,
    });
  });

  it('scopes: user (alias global) and local (the git root copy)', async () => {
    mkdirSync(join(t.workspace, '.git'));
    const u = await run({ action: 'create', scope: 'global', event: 'Stop', fields: { url: 'http://127.0.0.1:1/x' } });
    expect(u).toMatchObject({ scope: 'user', file: join(t.configDir, 'settings.json'), name: 'user:Stop:1.1' });
    const l = await run({ action: 'create', scope: 'local', event: 'Stop', fields: { command: 'x' } });
    expect(l).toMatchObject({
      scope: 'local',
      file: join(t.workspace, '.claude/settings.local.json'),
      name: 'local:Stop:1.1',
    });
  });

  it('a NAME on create, an unknown event, both or neither of --command/--url are usage errors', async () => {
    await expect(
      run({ action: 'create', name: 'guard', event: 'Stop', fields: { command: 'x' } }),
    ).rejects.toMatchObject({
      message: 'claude hooks have no names; omit "guard"',
      exit: 2,
    });
    await expect(run({ action: 'create', event: 'stop', fields: { command: 'x' } })).rejects.toMatchObject({
      code: 'unknown_event',
      exit: 2,
    });
    await expect(run({ action: 'create', event: 'Stop', fields: {} })).rejects.toMatchObject({ exit: 2 });
  });

  it('update and delete by name; --scope naming another file is not found', async () => {
    const text =
      '{\n  "model": "opus",\n  "hooks": {\n    "Stop": [\n      { "hooks": [ { "type": "command", "command": "a", "timeout": 5 } ] }\n    ]\n  }\n}\n';
    t.write('ws/.claude/settings.json', text);
    const r = await run({ action: 'update', name: 'project:Stop:1.1', fields: { timeout: 7 }, unset: [] });
    expect(r.changed).toBe(true);
    expect(readFileSync(project(), 'utf8')).toBe(text.replace('"timeout": 5', '"timeout": 7'));
    await expect(
      run({ action: 'update', name: 'project:Stop:1.1', scope: 'user', fields: { timeout: 1 } }),
    ).rejects.toMatchObject({
      code: 'hook_not_found',
    });
    await expect(run({ action: 'delete', name: 'project:Stop:4.1' })).rejects.toMatchObject({
      code: 'hook_not_found',
      message: 'hook "project:Stop:4.1" not found; did you mean "project:Stop:1.1"?',
    });
    await run({ action: 'delete', name: 'project:Stop:1.1' });
    expect(readFileSync(project(), 'utf8')).toBe('{\n  "model": "opus",\n  "hooks": {}\n}\n');
  }, 20_000);

  it('managed, plugin, skill and agent hooks are immutable', async () => {
    t.write('managed/managed-settings.json', oneHook('Stop', { type: 'command', command: 'm' }));
    t.write(
      'ws/.claude/skills/s/SKILL.md',
      '---\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: s\n---\n',
    );
    await expect(run({ action: 'delete', name: 'managed:Stop:1.1' })).rejects.toMatchObject({
      code: 'hook_source_immutable',
      message: 'hook "managed:Stop:1.1" source "claude_managed" is immutable by tools',
      exit: 1,
    });
    await expect(
      run({ action: 'update', name: 'skill/project/s:Stop:1.1', fields: { timeout: 1 } }),
    ).rejects.toMatchObject({
      code: 'hook_source_immutable',
    });
    await expect(run({ action: 'delete', name: 'plugin/x:Stop:1.1' })).rejects.toMatchObject({
      code: 'hook_not_found',
    });
  });

  it('enable/disable NAME has no switch; --all-hooks writes disableAllHooks and warns when another file still sets it', async () => {
    await expect(run({ action: 'disable', name: 'project:Stop:1.1' })).rejects.toMatchObject({
      code: 'claude_no_hook_switch',
      exit: 1,
    });
    const d = await run({ action: 'disable', allHooks: true });
    expect(d).toMatchObject({ name: 'disableAllHooks', changed: true });
    expect(JSON.parse(readFileSync(project(), 'utf8'))).toEqual({ disableAllHooks: true });
    t.write('home/.claude/settings.json', { disableAllHooks: true });
    const e = await run({ action: 'enable', allHooks: true });
    expect(readFileSync(project(), 'utf8')).toBe('{}\n');
    expect(e.warnings).toEqual([`disableAllHooks is still true in ${join(t.configDir, 'settings.json')}`]);
  });

  it('disable --all-hooks warns when a higher file sets disableAllHooks false, so hooks still run', async () => {
    t.write('ws/.claude/settings.json', { disableAllHooks: false });
    const d = await run({ action: 'disable', allHooks: true, scope: 'user' });
    expect(JSON.parse(readFileSync(join(t.configDir, 'settings.json'), 'utf8'))).toEqual({ disableAllHooks: true });
    expect(d.warnings).toEqual([
      `disableAllHooks is false in ${project()}, which outranks ${join(t.configDir, 'settings.json')}: hooks still run`,
    ]);
    // The summary does not claim an effect the warning denies.
    expect(d.summary).toBe(`set "disableAllHooks": true in ${join(t.configDir, 'settings.json')}`);
    const p = await run({ action: 'disable', allHooks: true });
    expect(p.warnings).toEqual([]);
  });

  it('refuses a target with errors and a result that would not validate; writes nothing', async () => {
    const bad = '{ "hooks": { "Stop": [ { "hooks": [ { "type": "command" } ] } ] } }';
    t.write('ws/.claude/settings.json', bad);
    await expect(run({ action: 'create', event: 'Stop', fields: { command: 'x' } })).rejects.toMatchObject({
      code: 'hook_validation_failed',
      message: 'hook declaration validation failed',
      exit: 1,
    });
    expect(readFileSync(project(), 'utf8')).toBe(bad);
    t.write('ws/.claude/settings.json', '{}');
    await expect(
      run({ action: 'create', event: 'Stop', fields: { command: 'x', if: 'Bash(x)' } }),
    ).rejects.toMatchObject({
      code: 'hook_validation_failed',
    });
    await expect(
      run({ action: 'create', event: 'SessionStart', fields: { url: 'https://x.test/' } }),
    ).rejects.toMatchObject({
      code: 'hook_validation_failed',
    });
    t.write('ws/.claude/settings.json', '{ nope');
    await expect(run({ action: 'create', event: 'Stop', fields: { command: 'x' } })).rejects.toMatchObject({
      code: 'hook_validation_failed',
    });
  });

  it('literal secrets in headers are refused; $VAR references pass', async () => {
    await expect(
      run({
        action: 'create',
        event: 'Stop',
        fields: { url: 'https://x.test/', headers: { Authorization: 'Bearer abcdefghijklmnopqrstuvwxyz012345' } },
      }),
    ).rejects.toMatchObject({
      code: 'hook_secret_input_forbidden',
      message: 'hook executor env contains a forbidden secret-bearing input',
    });
    const ok = await run({
      action: 'create',
      event: 'Stop',
      fields: { url: 'https://x.test/', headers: { Authorization: 'Bearer $TOKEN' }, allowedEnvVars: ['TOKEN'] },
    });
    expect(ok.changed).toBe(true);
  });

  it('--dry-run prints a unified diff and writes nothing', async () => {
    const r = await run({ action: 'create', event: 'Stop', fields: { command: 'x' }, dryRun: true });
    expect(r.dry_run).toBe(true);
    expect(r.diff).toContain('--- /dev/null\n+++ ');
    expect(r.diff).toContain('+      {\n');
    expect(() => lstatSync(project())).toThrow();
  });

  it('writes through a symbolic link, which stays a link', async () => {
    const real = t.write('dotfiles/settings.json', '{}\n');
    mkdirSync(join(t.workspace, '.claude'), { recursive: true });
    symlinkSync(real, project());
    await run({ action: 'create', event: 'Stop', fields: { command: 'x' } });
    expect(lstatSync(project()).isSymbolicLink()).toBe(true);
    expect(readlinkSync(project())).toBe(real);
    expect(JSON.parse(readFileSync(real, 'utf8')).hooks.Stop).toHaveLength(1);
  });
});
