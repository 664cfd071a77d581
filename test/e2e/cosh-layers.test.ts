// cosh config layers end to end (SPEC §1, §4.2, §4.4; seed 000 "Configuration"): the built CLI
// reads system < user < workspace config.toml, replaces per event, honours `[hooks] enabled`,
// skips nameless hooks, refuses unknown events and warns on unknown keys — proved by which real
// hooks run.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import {
  coshTree,
  hook,
  jsonLines,
  lineOf,
  PRE_SHELL,
  removeCoshTrees,
  writeText,
  type CoshTree,
} from '../fixtures/e2e-cosh/setup.js';

afterAll(removeCoshTrees);

interface ListEntry {
  order: number | null;
  name: string | null;
  event: string;
  dialect: string;
  source: string;
  enabled: boolean;
  status?: string;
  why?: string | null;
  location: { file: string; line: number };
}

interface ValidateReport {
  files: number;
  errors: number;
  warnings: number;
  diagnostics: { severity: string; code: string; message: string; file: string; line: number; hook?: string }[];
}

async function list(tree: CoshTree, ...flags: string[]): Promise<ListEntry[]> {
  const r = await tree.cli(['hooks', 'list', '--dialect', 'cosh', '-o', 'json', ...flags]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ListEntry[];
}

async function validate(tree: CoshTree, ...flags: string[]): Promise<{ code: number; report: ValidateReport }> {
  const r = await tree.cli(['hooks', 'validate', '-o', 'json', ...flags]);
  return { code: r.code, report: JSON.parse(r.stdout) as ValidateReport };
}

async function fire(tree: CoshTree, event: string, payload = '{}', ...flags: string[]) {
  return tree.cli(['hooks', 'fire', event, ...flags], { input: payload });
}

describe.concurrent('cosh config layers', () => {
  it('merges system < user < workspace per event: a higher layer that declares an event replaces the lower lists, and only for that event', async () => {
    const tree = coshTree({
      system: {
        events: {
          PreToolUse: [hook('sys-pre', { decision: 'ask' })],
          SessionStart: [hook('sys-start')],
          Stop: [hook('sys-stop')],
          BeforeModel: [hook('sys-model')],
        },
      },
      user: { events: { PreToolUse: [hook('user-pre-1'), hook('user-pre-2')], SessionStart: [hook('user-start')] } },
      workspace: { events: { SessionStart: [hook('ws-start')], BeforeModel: [] } },
    });

    const active = await list(tree);
    expect(active.map((d) => [d.event, d.name, d.order])).toEqual([
      ['PreToolUse', 'user-pre-1', 1],
      ['PreToolUse', 'user-pre-2', 2],
      ['SessionStart', 'ws-start', 1],
      ['Stop', 'sys-stop', 1],
    ]);
    const all = await list(tree, '--all');
    const overridden = all.filter((d) => d.status === 'overridden');
    expect(overridden.map((d) => d.name).sort()).toEqual(['sys-model', 'sys-pre', 'sys-start', 'user-start']);
    expect(overridden.find((d) => d.name === 'sys-pre')!.why).toContain(tree.layerFiles.user);
    expect(overridden.find((d) => d.name === 'user-start')!.why).toContain(tree.layerFiles.workspace);
    expect(overridden.every((d) => d.order === null)).toBe(true);

    // Each event fired for real: the replaced hooks never run. One event at a time, so the
    // order of marks is the dispatch order.
    const pre = await fire(tree, 'PreToolUse', PRE_SHELL, '--session', 'layers');
    expect(pre.code, pre.stderr).toBe(0); // sys-pre would have asked (exit 4)
    expect(tree.ran()).toEqual(['user-pre-1', 'user-pre-2']);
    expect((await fire(tree, 'SessionStart', '{}', '--session', 'layers')).code).toBe(0);
    expect((await fire(tree, 'Stop', '{}', '--session', 'layers')).code).toBe(0);
    const model = await fire(tree, 'BeforeModel', '{}', '--session', 'layers');
    expect(model.code).toBe(0);
    expect(model.stdout).toContain('No hooks ran.'); // the workspace's empty list cleared it
    expect(tree.ran()).toEqual(['user-pre-1', 'user-pre-2', 'ws-start', 'sys-stop']);
    expect(tree.records('layers').map((r) => r.hook_name)).toEqual([
      'user-pre-1',
      'user-pre-2',
      'ws-start',
      'sys-stop',
    ]);
  });

  it('[hooks] enabled = false drops the config hooks of every layer with a validate warning; extension hooks still run', async () => {
    const tree = coshTree({
      system: { events: { PreToolUse: [hook('sys-pre')], Stop: [hook('sys-stop')] } },
      user: { enabled: true, events: { Stop: [hook('user-stop')] } },
      workspace: { enabled: false, events: { PreToolUse: [hook('ws-pre', { decision: 'block' })] } },
    });
    writeText(
      join(tree.coshHome, 'extensions', 'guard', 'cosh-extension.json'),
      JSON.stringify({
        name: 'guard',
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', name: 'ext-pre', command: 'sh "$E2E_HOOK" ext-pre' }] }] },
      }),
    );

    const { code, report } = await validate(tree);
    expect(code).toBe(0); // a warning, not an error
    const warning = report.diagnostics.find((d) => d.code === 'hooks_disabled');
    expect(warning).toMatchObject({ severity: 'warning', line: lineOf(tree.layerFiles.workspace, 'enabled') });
    expect(warning!.file).toContain(join('workspace', '.copilot-shell', 'config.toml'));
    expect((await validate(tree, '--strict')).code).toBe(1);

    expect((await list(tree)).map((d) => d.name)).toEqual(['ext-pre']);
    const all = await list(tree, '--all');
    expect(
      all
        .filter((d) => d.status === 'disabled')
        .map((d) => [d.name, d.enabled])
        .sort(),
    ).toEqual([
      ['user-stop', false],
      ['ws-pre', false],
    ]);
    // Hooks of replaced events stay overridden: replacement is decided before enabled.
    expect(all.filter((d) => d.status === 'overridden').map((d) => d.name)).toEqual(['sys-pre', 'sys-stop']);

    const pre = await fire(tree, 'PreToolUse', PRE_SHELL);
    expect(pre.code, pre.stderr).toBe(0); // ws-pre would have blocked
    const stop = await fire(tree, 'Stop');
    expect(stop.code).toBe(0);
    expect(tree.ran()).toEqual(['ext-pre']);
  });

  it('the highest layer that sets enabled wins: system false, workspace true runs the config hooks', async () => {
    const tree = coshTree({
      system: { enabled: false, events: { PreToolUse: [hook('sys-pre')] } },
      user: { events: { Stop: [hook('user-stop')] } },
      workspace: { enabled: true },
    });
    const { report } = await validate(tree);
    expect(report.diagnostics.filter((d) => d.code === 'hooks_disabled')).toEqual([]);
    await fire(tree, 'PreToolUse', PRE_SHELL);
    await fire(tree, 'Stop');
    expect(tree.ran()).toEqual(['sys-pre', 'user-stop']);
  });

  it('the highest layer that sets enabled wins: user false beats system true when the workspace is silent', async () => {
    const tree = coshTree({
      system: { enabled: true, events: { PreToolUse: [hook('sys-pre')] } },
      user: { enabled: false },
      workspace: { events: { PreToolUse: [hook('ws-pre')] } },
    });
    const pre = await fire(tree, 'PreToolUse', PRE_SHELL);
    expect(pre.code, pre.stderr).toBe(0);
    expect(pre.stdout).toContain('No hooks ran.');
    expect(tree.ran()).toEqual([]);
  });

  it('skips a nameless hook: validate warns, list --all shows it skipped with name null, fire never runs it', async () => {
    const tree = coshTree({
      user: {
        events: { PreToolUse: [{ command: 'sh "$E2E_HOOK" nameless \'{"decision":"block"}\'' }, hook('named')] },
      },
    });
    const { code, report } = await validate(tree);
    expect(code).toBe(0);
    expect(report.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'nameless_hook',
        line: lineOf(tree.layerFiles.user, '[[hooks.PreToolUse]]'),
      }),
    ]);

    expect((await list(tree)).map((d) => d.name)).toEqual(['named']);
    const all = await list(tree, '--all');
    expect(all.map((d) => [d.name, d.status, d.order])).toEqual([
      [null, 'skipped', null],
      ['named', 'active', 1],
    ]);
    expect(all[0]!.why).toBe('hook has no name');
    const human = await tree.cli(['hooks', 'list', '--all', '--dialect', 'cosh']);
    expect(human.stdout).toMatch(/PreToolUse\s+cosh_config\s+sync\s+0\s+skipped\s+hook has no name/);

    const pre = await fire(tree, 'PreToolUse', PRE_SHELL, '--session', 'nameless');
    expect(pre.code, pre.stderr).toBe(0); // the nameless hook would have blocked
    expect(tree.ran()).toEqual(['named']);
    expect(tree.records('nameless').map((r) => r.hook_name)).toEqual(['named']);
  });

  it('refuses to fire while a cosh layer names an unknown event (exit 2, listing it); validate exits 1; compozy fire is unaffected', async () => {
    const tree = coshTree({
      system: { events: { PreToolUse: [hook('sys-pre')] } },
      user: { events: { PreToolUse: [hook('guard')], PreToolUs: [hook('typo')] } },
    });
    const where = `${join('home', '.copilot-shell', 'config.toml')}:${lineOf(tree.layerFiles.user, '[[hooks.PreToolUs]]')}`;

    const r = await fire(tree, 'PreToolUse', PRE_SHELL);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('refusing to fire "PreToolUse"');
    // SPEC §7.1: the closest event, when one is close (else the list of events)
    expect(r.stderr).toContain(`${where}: unknown cosh event "PreToolUs"; did you mean "PreToolUse"?`);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const json = await fire(tree, 'PreToolUse', PRE_SHELL, '-o', 'json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'declarations_invalid', exit: 2 });
    // Another unrelated cosh event is refused as well: the source it reads has an error.
    expect((await fire(tree, 'Stop')).code).toBe(2);
    expect(tree.ran()).toEqual([]);
    expect(tree.records('any')).toEqual([]);

    const { code, report } = await validate(tree);
    expect(code).toBe(1);
    expect(report.diagnostics).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        code: 'invalid_event',
        line: lineOf(tree.layerFiles.user, '[[hooks.PreToolUs]]'),
      }),
    );
    // Firing an event name no dialect knows is a usage error of its own.
    const unknown = await fire(tree, 'PreToolUs');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown event "PreToolUs"');
    // A cosh error does not stop CompozyOS events (the refusal is per dialect).
    const compozy = await fire(tree, 'session.post_create', '{}');
    expect(compozy.code, compozy.stderr).toBe(0);
  });

  it('warns about unknown keys (validate exits 0, --strict 1) and still runs the hook', async () => {
    const tree = coshTree({
      user: {
        events: { PreToolUse: [hook('retrying', { decision: 'allow' }, { extra: { retries: 3 } })] },
        hooksTableLines: ['verbose = true'],
      },
    });
    const { code, report } = await validate(tree);
    expect(code).toBe(0);
    expect(report.errors).toBe(0);
    expect(report.diagnostics).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        code: 'unknown_key',
        line: lineOf(tree.layerFiles.user, 'retries'),
        hook: 'retrying',
      }),
    );
    expect(report.diagnostics).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        code: 'unknown_key',
        line: lineOf(tree.layerFiles.user, 'verbose'),
      }),
    );
    expect((await validate(tree, '--strict')).code).toBe(1);
    const pre = await fire(tree, 'PreToolUse', PRE_SHELL);
    expect(pre.code, pre.stderr).toBe(0);
    expect(pre.stdout).toMatch(/verdict\s+allow/);
    expect(tree.ran()).toEqual(['retrying']);
  });

  it('ignores a matcher on SessionStart with a validate warning: the hook runs whatever the tool', async () => {
    const tree = coshTree({ user: { events: { SessionStart: [hook('start', '', { matcher: '^never$' })] } } });
    const { code, report } = await validate(tree);
    expect(code).toBe(0);
    expect(report.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'matcher_ignored',
        line: lineOf(tree.layerFiles.user, 'matcher'),
      }),
    ]);
    const r = await fire(tree, 'SessionStart', JSON.stringify({ tool_name: 'shell' }));
    expect(r.code, r.stderr).toBe(0);
    expect(tree.ran()).toEqual(['start']);
  });

  it('skips every hook named in $COSH_HOME/states/hooks.json (config and extension alike) and lists them disabled', async () => {
    const tree = coshTree({
      user: { events: { PreToolUse: [hook('gate', { decision: 'block' }), hook('audit')] } },
    });
    writeText(
      join(tree.coshHome, 'extensions', 'dup', 'cosh-extension.json'),
      JSON.stringify({
        name: 'dup',
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', name: 'gate', command: 'sh "$E2E_HOOK" ext-gate' }] }] },
      }),
    );
    writeText(join(tree.coshHome, 'states', 'hooks.json'), '{"disabled":["gate"]}\n');

    const active = await list(tree);
    expect(active.map((d) => [d.name, d.source])).toEqual([['audit', 'cosh_config']]);
    const disabled = (await list(tree, '--all')).filter((d) => d.status === 'disabled');
    expect(disabled.map((d) => [d.name, d.source, d.enabled])).toEqual([
      ['gate', 'cosh_config', false],
      ['gate', 'cosh_extension', false],
    ]);
    expect(disabled[0]!.why).toContain(join('states', 'hooks.json'));

    const pre = await fire(tree, 'PreToolUse', PRE_SHELL, '-o', 'jsonl');
    expect(pre.code, pre.stderr).toBe(0); // gate would have blocked
    expect(jsonLines(pre.stdout).map((l) => l.hook_name)).toEqual(['audit']);
    expect(tree.ran()).toEqual(['audit']);
  });
});
