// Help on the built CLI (issue 16, SPEC §7.1): the root help lists every command, every help names
// the environment that moves hookctl's homes, `hookctl help [COMMAND]` is `--help`, and no
// example depends on this repository's fixtures/ (they must work for an installed package; the
// pack test runs them there).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../support/cli.js';

const manifest = JSON.parse(readFileSync(join(repoRoot, 'oclif.manifest.json'), 'utf8')) as {
  commands: Record<string, { examples?: string[] }>;
};
const commandIds = Object.keys(manifest.commands).sort();
const ENV_NAMES = ['COMPOZY_HOME', 'COSH_HOME', 'COSH_SYSTEM_ROOT'];

describe('help', { timeout: 120_000 }, () => {
  it('top-level --help lists every command and the environment', async () => {
    const r = await runCli(['--help']);
    expect(r.code, r.stderr).toBe(0);
    expect(commandIds.length).toBeGreaterThan(10);
    for (const id of commandIds) expect(r.stdout).toMatch(new RegExp(`^  ${id.replaceAll(':', ' ')} `, 'm'));
    for (const name of ENV_NAMES) expect(r.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it('every command help names COMPOZY_HOME, COSH_HOME and COSH_SYSTEM_ROOT', async () => {
    const helps = await Promise.all(commandIds.map((id) => runCli([...id.split(':'), '--help'])));
    helps.forEach((r, i) => {
      expect(r.code, `${commandIds[i]}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toContain('\nENVIRONMENT\n');
      for (const name of ENV_NAMES) expect(r.stdout, commandIds[i]).toContain(name);
    });
  });

  it('hookctl help [COMMAND] prints what --help prints', async () => {
    const pairs = [
      [['help'], ['--help']],
      [
        ['help', 'hooks'],
        ['hooks', '--help'],
      ],
      [
        ['help', 'hooks', 'fire'],
        ['hooks', 'fire', '--help'],
      ],
      [
        ['help', 'hooks', 'list'],
        ['hooks', 'list', '--help'],
      ],
    ];
    for (const [viaHelp, viaFlag] of pairs) {
      const [a, b] = await Promise.all([runCli(viaHelp!), runCli(viaFlag!)]);
      expect(a.code, a.stderr).toBe(0);
      expect(a.stdout).not.toBe('');
      expect(a.stdout).toBe(b.stdout);
    }
  });

  it('help for an unknown command is the one-line unknown-command error, exit 2', async () => {
    const r = await runCli(['help', 'hooks', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('command "hooks nope" not found');
  });

  it('a command typed without its topic suggests the topic’s command, as `hooks lst` does (issue 28)', async () => {
    const [help, bare, helpTypo] = await Promise.all([
      runCli(['help', 'list']),
      runCli(['fire', 'x']),
      runCli(['help', 'lst']),
    ]);
    for (const r of [help, bare, helpTypo]) {
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(help.stderr.trim()).toBe('hookctl: command "list" not found; did you mean "hooks list"?');
    expect(bare.stderr.trim()).toBe('hookctl: command "fire" not found; did you mean "hooks fire"?');
    expect(helpTypo.stderr.trim()).toBe('hookctl: command "lst" not found; did you mean "hooks list"?');
  });

  it('no example uses this repository’s fixtures/', () => {
    const examples = commandIds.flatMap((id) => manifest.commands[id]!.examples ?? []);
    expect(examples.length).toBeGreaterThan(20);
    for (const e of examples) expect(e).not.toMatch(/fixtures\//);
  });
});
