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
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  description: string;
  homepage: string;
  repository: { url: string };
  bugs: { url: string };
  files: string[];
  oclif: { topics: { hooks: { description: string } } };
};
const words = (id: string) => (id === '' ? [] : id.split(':'));

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

  it('-h is --help on every command', async () => {
    const ids = ['', ...commandIds];
    const pairs = await Promise.all(
      ids.map((id) => Promise.all([runCli([...words(id), '-h']), runCli([...words(id), '--help'])])),
    );
    pairs.forEach(([short, long], i) => {
      expect(short.code, `${ids[i]}: ${short.stderr}`).toBe(0);
      expect(short.stdout, ids[i]).not.toBe('');
      expect(short.stdout, ids[i]).toBe(long.stdout);
    });
  });

  it('no help text says "both dialects", cites SPEC or points to a docs/ file the package lacks', async () => {
    const helps = await Promise.all(['', ...commandIds].map((id) => runCli([...words(id), '--help'])));
    const texts = [...helps.map((r) => r.stdout), pkg.description, pkg.oclif.topics.hooks.description];
    for (const text of texts) {
      // A docs/ page linked by its full URL stands alone; a bare docs/ path does not.
      const bare = text.replace(/https:\/\/\S+/g, '');
      expect(bare).not.toMatch(/both dialects|SPEC|§|docs\//i);
    }
  });

  it('the shipped text files cite no SPEC section either', () => {
    for (const file of ['schemas/hooktest.schema.json', 'skills/README.md'])
      expect(readFileSync(join(repoRoot, file), 'utf8'), file).not.toMatch(/SPEC|§/);
  });

  it('package.json names every dialect and where the docs, the code and the bugs are', () => {
    for (const name of ['compozy', 'cosh', 'claude']) expect(pkg.description.toLowerCase()).toContain(name);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.repository.url).toMatch(/github\.com\/hookctl\/hookctl/);
    expect(pkg.bugs.url).toMatch(/^https:\/\/.*\/issues$/);
  });

  it('create and update give each flag its meaning per dialect where they differ', async () => {
    const helps = await Promise.all([runCli(['hooks', 'create', '--help']), runCli(['hooks', 'update', '--help'])]);
    for (const r of helps) {
      const text = r.stdout.replace(/\s+/g, ' ');
      expect(text).toContain('compozy: a Go duration, such as 250ms, 5s, 1m30s. claude: seconds');
      expect(text).toMatch(
        /--command=<value> compozy: the executable, run with --arg and no shell\. claude: a shell command/,
      );
      expect(text).toMatch(/--url=<value> claude: an http hook/);
      expect(text).toMatch(
        /--matcher=<value>\.\.\. compozy: FIELD=PATTERN .* claude and codex: the group's raw matcher string/,
      );
      expect(text).toContain('codex: whole seconds ≥ 0');
      expect(text).toMatch(/--event=<value> The event: compozy such as tool\.pre_call, claude such as PreToolUse/);
    }
  });

  it('names, --unset keys and --family say what each dialect takes', async () => {
    const [update, info, fire, events] = await Promise.all(
      ['update', 'info', 'fire', 'events'].map((c) => runCli(['hooks', c, '--help'])),
    );
    const flat = (r: { stdout: string }) => r.stdout.replace(/\s+/g, ' ');
    expect(flat(update)).toContain('claude: if, timeout, statusMessage, headers.<H>, matcher');
    expect(flat(update)).toContain('--unset takes if, timeout, statusMessage, args, shell');
    for (const r of [update, info])
      expect(flat(r)).toMatch(/claude( and codex)?: as hooks list shows it, such as project:PreToolUse:1\.1/);
    expect(flat(update)).toContain('codex: timeout, async, statusMessage, additionalContextLimit, matcher');
    expect(flat(fire)).toMatch(
      /--hook=<value> Run only the declarations of this hook name \(claude: as hooks list shows it/,
    );
    expect(flat(events)).toContain('cosh events are family "cosh"; claude events have none');
  });

  it('hooks test --help describes the file format and names the shipped schema', async () => {
    const r = await runCli(['hooks', 'test', '--help']);
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('schemas/hooktest.schema.json');
    for (const key of ['cases', 'payload_file', 'dry_run', 'expect', 'verdict', 'not_ran', 'max_duration_ms'])
      expect(text).toContain(key);
    expect(text).toContain('claude pass, allow, ask, defer, deny');
    expect(readFileSync(join(repoRoot, 'schemas', 'hooktest.schema.json'), 'utf8')).toContain('"cases"');
    expect(pkg.files).toContain('schemas');
  });

  it('no example uses this repository’s fixtures/', () => {
    const examples = commandIds.flatMap((id) => manifest.commands[id]!.examples ?? []);
    expect(examples.length).toBeGreaterThan(20);
    for (const e of examples) expect(e).not.toMatch(/fixtures\//);
  });
});
