// CompozyOS catalog versions end to end (SPEC §10, issue 17), over the built CLI: the newest
// release by default, --compozy-version and HOOKCTL_COMPOZY_VERSION on every command, the
// release-naming diagnostics at each boundary (an event valid in one release and gone in the next,
// and one not yet added), hooks events and --changes, matcher fields reading the payload field the
// catalog names, the release's patch types, and the loader rules CompozyOS's own tests expect.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

/** A home and a workspace whose config.toml holds `toml`. */
function tree(toml: string) {
  const base = tempDir('hookctl-releases-');
  const env = isolatedEnv({ home: base });
  const workspace = join(base, 'ws');
  const config = join(workspace, '.compozy', 'config.toml');
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(config, toml);
  return { base, env, workspace, config };
}

const hook = (name: string, event: string, extra = '') =>
  `[[hooks.declarations]]\nname = "${name}"\nevent = "${event}"\ncommand = "/bin/true"\n${extra}\n`;

interface Report {
  errors: number;
  diagnostics: { code: string; message: string; hook?: string }[];
}

async function validate(workspace: string, env: Record<string, string>, ...args: string[]) {
  const r = await runCli(['hooks', 'validate', '--workspace', workspace, '-o', 'json', ...args], { env });
  return { code: r.code, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

describe('selecting a CompozyOS release', { timeout: 120_000 }, () => {
  it('the newest by default; --compozy-version and HOOKCTL_COMPOZY_VERSION select another; the flag wins', async () => {
    const env = isolatedEnv();
    const names = async (args: string[], extra: Record<string, string> = {}) => {
      const r = await runCli(['hooks', 'events', '--dialect', 'compozy', '-o', 'json', ...args], {
        env: { ...env, ...extra },
      });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { event: string }[]).map((e) => e.event);
    };
    const newest = await names([]);
    expect(newest).toContain('subagent.settled');
    expect(newest).not.toContain('sandbox.prepare');
    const old = await names(['--compozy-version', 'pre-retire']);
    expect(old).toContain('sandbox.prepare');
    expect(old).not.toContain('subagent.settled');
    expect(await names([], { HOOKCTL_COMPOZY_VERSION: 'pre-retire' })).toEqual(old);
    expect(await names(['--compozy-version', 'main-2026-10'], { HOOKCTL_COMPOZY_VERSION: 'pre-retire' })).toEqual(
      newest,
    );
    // A version whose catalog is unknown behaves as the nearest earlier known one.
    expect(await names(['--compozy-version', 'v0.3.0-beta.21'])).toEqual(
      await names(['--compozy-version', 'v0.3.0-beta.20']),
    );
  });

  it('an unknown version is a usage error listing the known ones, on every command', async () => {
    const env = isolatedEnv();
    const known =
      'known versions: v0.3.0-beta.19, v0.3.0-beta.20, v0.3.0-beta.21, v0.3.0-beta.22, changelog-2026-09-10, ' +
      'pre-retire, retire-2026-09-27, main-2026-10 (newest)';
    for (const args of [
      ['hooks', 'list'],
      ['hooks', 'events'],
      ['hooks', 'validate'],
      ['hooks', 'runs'],
      ['hooks', 'info', 'x'],
      ['hooks', 'fire', 'tool.pre_call', '--dry-run'],
      ['hooks', 'create', 'x', '--event', 'tool.pre_call', '--command', '/bin/true'],
    ]) {
      const r = await runCli([...args, '--compozy-version', 'v9'], { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(`hookctl: unknown CompozyOS version "v9"; ${known}\n`);
    }
    // The variable alone stops the commands that read compozy's catalog (issue 24: not the others).
    const viaEnv = await runCli(['hooks', 'events', '-o', 'json'], {
      env: { ...env, HOOKCTL_COMPOZY_VERSION: 'latest' },
    });
    expect(viaEnv.code).toBe(2);
    expect(JSON.parse(viaEnv.stdout)).toEqual({
      error: { code: 'unknown_compozy_version', message: `unknown CompozyOS version "latest"; ${known}`, exit: 2 },
    });
  });
});

describe('release boundaries in validate and fire', { timeout: 120_000 }, () => {
  it('sandbox.prepare: valid up to pre-retire, removed in v0.3.0 (the retirement release)', async () => {
    const t = tree(hook('prep', 'sandbox.prepare'));
    const before = await validate(t.workspace, t.env, '--compozy-version', 'pre-retire');
    expect(before.code, JSON.stringify(before.report)).toBe(0);
    const after = await validate(t.workspace, t.env, '--compozy-version', 'retire-2026-09-27');
    expect(after.code).toBe(1);
    expect(after.report.diagnostics.map((d) => [d.code, d.message, d.hook])).toEqual([
      ['invalid_event', 'hooks: invalid hook event "sandbox.prepare" (removed in CompozyOS v0.3.0)', 'prep'],
    ]);
    // The default (newest) release does not have it either.
    expect((await validate(t.workspace, t.env)).report.diagnostics[0]!.message).toBe(
      'hooks: invalid hook event "sandbox.prepare" (removed in CompozyOS v0.3.0)',
    );
  });

  it('subagent.settled: not yet in v0.3.0, added in main-2026-10; terminal.* added 2026-09-10', async () => {
    const t = tree(hook('settled', 'subagent.settled') + hook('term', 'terminal.opened'));
    expect((await validate(t.workspace, t.env)).code).toBe(0);
    const retire = await validate(t.workspace, t.env, '--compozy-version', 'retire-2026-09-27');
    expect(retire.report.diagnostics.map((d) => d.message)).toEqual([
      'hooks: invalid hook event "subagent.settled" (added in CompozyOS main-2026-10)',
    ]);
    const beta = await validate(t.workspace, t.env, '--compozy-version', 'v0.3.0-beta.20');
    expect(beta.report.diagnostics.map((d) => d.message)).toEqual([
      'hooks: invalid hook event "subagent.settled" (added in CompozyOS main-2026-10)',
      'hooks: invalid hook event "terminal.opened" (added in CompozyOS changelog-2026-09-10)',
    ]);
  });

  it('participation_channel: a matcher field until the retirement, not after', async () => {
    const t = tree(
      hook('c', 'coordinator.spawned', '[hooks.declarations.matcher.autonomy]\nparticipation_channel = "ch_*"\n'),
    );
    expect((await validate(t.workspace, t.env, '--compozy-version', 'pre-retire')).code).toBe(0);
    const now = await validate(t.workspace, t.env);
    expect(now.report.diagnostics.map((d) => d.message)).toEqual([
      'hooks: matcher fields [participation_channel] are not valid for event "coordinator.spawned"',
    ]);
  });

  it('fire of an event the selected release lacks is a usage error naming the release', async () => {
    const t = tree('');
    const r = await runCli(['hooks', 'fire', 'sandbox.prepare', '--workspace', t.workspace], { env: t.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'hookctl: event "sandbox.prepare" is not in CompozyOS main-2026-10: removed in CompozyOS v0.3.0; ' +
        'select another with --compozy-version (see: hookctl hooks events --changes)\n',
    );
    const old = await runCli(
      ['hooks', 'fire', 'sandbox.prepare', '--workspace', t.workspace, '--compozy-version', 'pre-retire', '-o', 'json'],
      { env: t.env },
    );
    expect(old.code, old.stderr).toBe(0);
    expect(JSON.parse(old.stdout)).toMatchObject({ event: 'sandbox.prepare', verdict: 'completed' });
  });
});

describe('hooks events per release', { timeout: 120_000 }, () => {
  it('--changes lists what changed, and says when a catalog is unknown', async () => {
    const env = isolatedEnv();
    const json = await runCli(['hooks', 'events', '--changes', '--dialect', 'compozy', '-o', 'json'], { env });
    expect(json.code, json.stderr).toBe(0);
    const versions = JSON.parse(json.stdout) as {
      version: string;
      uses?: string;
      selected?: boolean;
      changes: { kind: string; name: string }[];
    }[];
    expect(versions.map((v) => v.version)).toEqual([
      'v0.3.0-beta.19',
      'v0.3.0-beta.20',
      'v0.3.0-beta.21',
      'v0.3.0-beta.22',
      'changelog-2026-09-10',
      'pre-retire',
      'retire-2026-09-27',
      'main-2026-10',
      'call-branch',
    ]);
    expect(versions.find((v) => v.version === 'v0.3.0-beta.21')).toMatchObject({ uses: 'v0.3.0-beta.20', changes: [] });
    expect(versions.filter((v) => v.selected).map((v) => v.version)).toEqual(['main-2026-10']);
    const retire = versions.find((v) => v.version === 'retire-2026-09-27')!;
    expect(retire.changes).toContainEqual(expect.objectContaining({ kind: 'event_removed', name: 'sandbox.prepare' }));
    const human = await runCli(
      ['hooks', 'events', '--changes', '--dialect', 'compozy', '--compozy-version', 'pre-retire'],
      {
        env,
      },
    );
    expect(human.stdout).toContain(
      'CompozyOS v0.3.0-beta.22  date ~2026-09-01, catalog unknown\n' +
        '  catalog unknown: behaves as v0.3.0-beta.20, the nearest earlier version whose catalog is known\n',
    );
    expect(human.stdout).toMatch(/^CompozyOS pre-retire {2}date .*← selected$/m);
    expect(human.stdout).toContain('  - event sandbox.prepare (sandbox)\n');
  });

  it('hooks events EVENT of an event the selected release lacks names the release', async () => {
    const env = isolatedEnv();
    const gone = await runCli(['hooks', 'events', 'sandbox.prepare'], { env });
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain(
      'event "sandbox.prepare" is not in CompozyOS main-2026-10: removed in CompozyOS v0.3.0',
    );
    const old = await runCli(['hooks', 'events', 'sandbox.prepare', '--compozy-version', 'pre-retire', '-o', 'json'], {
      env,
    });
    expect(old.code, old.stderr).toBe(0);
    expect(JSON.parse(old.stdout)).toMatchObject({ event: 'sandbox.prepare', family: 'sandbox' });
  });

  it('the context patch of each release: deny and reason before main-2026-10, only labels from it', async () => {
    const env = isolatedEnv();
    const patchKeys = async (...args: string[]) => {
      const r = await runCli(['hooks', 'events', 'context.pre_compact', '--schema', ...args], { env });
      expect(r.code, r.stderr).toBe(0);
      return Object.keys((JSON.parse(r.stdout) as { patch: { properties: object } }).patch.properties);
    };
    expect(await patchKeys()).toEqual(['labels']);
    expect(await patchKeys('--compozy-version', 'retire-2026-09-27')).toEqual([
      'deny',
      'deny_reason',
      'reason',
      'strategy',
      'context_blocks',
    ]);
    const row = async (...args: string[]) => {
      const r = await runCli(['hooks', 'events', '--family', 'context', '-o', 'json', ...args], { env });
      return (JSON.parse(r.stdout) as { deny: string | null }[])[0]!.deny;
    };
    expect(await row()).toBeNull();
    expect(await row('--compozy-version', 'retire-2026-09-27')).toBe('stop');
  });

  it('a hook that denies a compaction: stops the chain before main-2026-10, fails its run from it', async () => {
    const answer = JSON.stringify(JSON.stringify({ deny: true, deny_reason: 'no' }));
    const t = tree(
      '[[hooks.declarations]]\nname = "deny-compact"\nevent = "context.pre_compact"\nmode = "sync"\n' +
        `command = "/bin/echo"\nargs = [${answer}]\n`,
    );
    const fire = async (...args: string[]) => {
      const r = await runCli(
        ['hooks', 'fire', 'context.pre_compact', '--workspace', t.workspace, '-o', 'json', ...args],
        {
          env: t.env,
          input: '{}',
        },
      );
      const out = JSON.parse(r.stdout) as { verdict: string; runs: { outcome: string; error: string | null }[] };
      return [out.verdict, out.runs.map((x) => [x.outcome, x.error ?? null])];
    };
    expect(await fire('--compozy-version', 'retire-2026-09-27')).toEqual(['stopped', [['denied', null]]]);
    expect(await fire()).toEqual([
      'completed',
      [['failed', 'hooks: decode patch for hook "deny-compact": json: unknown field "deny"']],
    ]);
  });
});

describe('matcher fields read the payload field the catalog names', { timeout: 120_000 }, () => {
  it('message_role reads role: a hook on assistant messages runs for a real payload', async () => {
    const t = tree('');
    const mark = join(t.base, 'ran.txt');
    writeFileSync(
      t.config,
      [
        '[[hooks.declarations]]',
        'name = "assistant-only"',
        'event = "message.start"',
        'mode = "sync"',
        'command = "/bin/sh"',
        `args = ["-c", "echo ran >> \\"$0\\"", ${JSON.stringify(mark)}]`,
        '[hooks.declarations.matcher]',
        'message_role = "assistant"',
        '',
      ].join('\n'),
    );
    const fire = (payload: object) =>
      runCli(['hooks', 'fire', 'message.start', '--workspace', t.workspace, '-o', 'json'], {
        env: t.env,
        input: JSON.stringify(payload),
      });
    const user = JSON.parse((await fire({ role: 'user' })).stdout) as { runs: unknown[] };
    expect(user.runs).toHaveLength(0);
    const assistant = await fire({ role: 'assistant' });
    expect(assistant.code, assistant.stderr).toBe(0);
    expect((JSON.parse(assistant.stdout) as { runs: { hook_name: string; outcome: string }[] }).runs).toEqual([
      expect.objectContaining({ hook_name: 'assistant-only', outcome: 'applied' }),
    ]);
    expect(readFileSync(mark, 'utf8')).toBe('ran\n');
  });
});

describe('what CompozyOS refuses, named on the command line', { timeout: 120_000 }, () => {
  it('validate FILE: an AGENT.md with no front matter, one with a BOM, an extension with resources.widgets', async () => {
    const t = tree('');
    const agent = join(t.env.COMPOZY_HOME, 'agents', 'plain', 'AGENT.md');
    mkdirSync(dirname(agent), { recursive: true });
    writeFileSync(agent, '# Plain\n');
    const bom = join(t.env.COMPOZY_HOME, 'agents', 'bom', 'AGENT.md');
    mkdirSync(dirname(bom), { recursive: true });
    writeFileSync(bom, '\uFEFF---\nname: bom\n---\n');
    const manifest = join(t.env.COMPOZY_HOME, 'extensions', 'w', 'extension.toml');
    mkdirSync(dirname(manifest), { recursive: true });
    writeFileSync(manifest, '[extension]\nname = "w"\nversion = "latest"\n\n[resources]\nwidgets = []\n');
    const r = await runCli(['hooks', 'validate', agent, bom, manifest, '-o', 'json'], { env: t.env });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.diagnostics.map((d) => [d.code, d.message])).toEqual([
      // in file order: agents/bom before agents/plain
      [
        'frontmatter_bom',
        'AGENT.md starts with a UTF-8 byte-order mark before its front matter: CompozyOS refuses the file; save it as UTF-8 without BOM',
      ],
      [
        'frontmatter_missing',
        'AGENT.md has no front matter: CompozyOS refuses a file that does not open with a "---" line',
      ],
      [
        'invalid_manifest_field',
        'extension: invalid manifest field "version" (value "latest"): must be a semantic version',
      ],
      [
        'invalid_manifest_field',
        'extension: invalid manifest field "resources.widgets": unknown manifest field "resources.widgets"',
      ],
    ]);
  });

  it('cosh: update and delete of a name only a cosh hook has are refused as immutable', async () => {
    const t = tree('');
    const cosh = join(t.env.COSH_HOME, 'config.toml');
    mkdirSync(dirname(cosh), { recursive: true });
    writeFileSync(cosh, '[[hooks.PreToolUse]]\nname = "guard"\ncommand = "/bin/true"\n');
    for (const args of [
      ['hooks', 'delete', 'guard'],
      ['hooks', 'update', 'guard', '--priority', '5'],
    ]) {
      const r = await runCli([...args, '--workspace', t.workspace, '-o', 'json'], { env: t.env });
      expect(r.code, r.stdout).toBe(1);
      expect(JSON.parse(r.stdout).error).toMatchObject({
        code: 'hook_source_immutable',
        message: 'hook "guard" source "cosh_config" is immutable by tools',
      });
    }
  });
});
