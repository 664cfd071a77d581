import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  COSH_RUNTIME_EXTENSION_KEYS,
  coshExtensionNameError,
  expandCoshVariables,
  parseCoshExtension,
} from '../../src/dialects/cosh/extension.js';

const WS = '/work/space';
const FILE = '/ext/demo/cosh-extension.json';
const fixture = (name: string) =>
  fileURLToPath(new URL(`../fixtures/cosh/extensions/${name}/cosh-extension.json`, import.meta.url));
const parseFixture = (name: string) => parseCoshExtension(fixture(name), readFileSync(fixture(name), 'utf8'), WS);

function manifest(body: Record<string, unknown>) {
  return parseCoshExtension(FILE, JSON.stringify(body, null, 2), WS);
}
function hooksOf(event: string, groups: unknown[]) {
  return manifest({ name: 'demo', hooks: { [event]: groups } });
}

describe('cosh-extension.json', () => {
  it('reads a security extension: four PreToolUse hooks in group order, matchers inherited, description kept', () => {
    const m = parseFixture('agent-sec');
    const root = dirname(fixture('agent-sec'));
    expect(m.diagnostics).toEqual([]);
    expect(m).toMatchObject({ name: 'agent-sec', version: '0.5.0', dir: root });
    const pre = m.hooks.filter((h) => h.event === 'PreToolUse');
    expect(pre.map((h) => [h.name, h.matcher])).toEqual([
      ['skill-ledger', 'skill'],
      ['code-scanner', 'run_shell_command'],
      ['sandbox-guard', undefined],
      ['observability-hook', undefined],
    ]);
    expect(pre[0]!.command).toBe(`python3 ${root}/hooks/skill_ledger.py`);
    expect(pre[1]!.description).toBe('Scans tool code for vulnerabilities');
    expect(pre[2]!.timeout_ms).toBe(5000);
    expect(m.hooks.filter((h) => h.name === 'observability-hook').map((h) => h.event)).toEqual([
      'PreToolUse',
      'UserPromptSubmit',
      'Stop',
    ]);
    // Each hook's line is where its object starts.
    const text = readFileSync(fixture('agent-sec'), 'utf8').split('\n');
    for (const h of m.hooks) expect(text[h.line - 1]!.trim()).toBe('{');
    expect(text[pre[1]!.line]).toContain('"type": "command"');
  });

  it('reads a tokenless-style extension: empty matcher, sequential, per-hook env, runtime keys quiet, fail_open warns', () => {
    const m = parseFixture('tokenless');
    const root = dirname(fixture('tokenless'));
    expect(m.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'unknown_key',
        message: expect.stringContaining('"fail_open"'),
        hook: 'tokenless-tool-ready',
      }),
    ]);
    const [ready, rewrite] = m.hooks;
    expect(ready!.matcher).toBeUndefined();
    expect(ready!.command).toBe(`bash ${root}/hooks/tool_ready.sh --workspace=${WS}/src`);
    expect(ready!.env).toEqual({ TOKENLESS_AGENT_ID: 'copilot-shell', TOKENLESS_HOME: `${root}/data` });
    expect(rewrite!.matcher).toBe('^(Bash|run_shell_command|Shell)$');
  });

  it('reads a skills-only extension as valid with no hooks', () => {
    const m = parseFixture('os-skills');
    expect(m.diagnostics).toEqual([]);
    expect(m.hooks).toEqual([]);
    expect(m.name).toBe('os-skills');
  });

  it('defaults the version to 0.0.0', () => {
    expect(manifest({ name: 'demo' }).version).toBe('0.0.0');
    expect(manifest({ name: 'demo', version: 3 }).diagnostics).toEqual([
      expect.objectContaining({ code: 'invalid_field_type', line: 3 }),
    ]);
  });

  describe('name', () => {
    it.each(['a', 'agent-sec-core', 'os.skills_2', '0x', 'a'.repeat(64)])('accepts %j', (name) => {
      expect(coshExtensionNameError(name)).toBeUndefined();
      expect(manifest({ name }).name).toBe(name);
    });
    it.each(['Agent', '-lead', 'trail-', 'has space', 'under_', '.dot', 'é', 'a'.repeat(65), ''])(
      'rejects %j',
      (name) => {
        const m = manifest({ name, hooks: { Stop: [{ hooks: [{ type: 'command', name: 'h', command: 'x' }] }] } });
        expect(m.name).toBeUndefined();
        expect(m.diagnostics).toEqual([
          expect.objectContaining({ severity: 'error', code: 'invalid_extension_name', line: 2 }),
        ]);
      },
    );
    it('is required', () => {
      expect(manifest({ version: '1.0.0' }).diagnostics).toEqual([
        expect.objectContaining({ severity: 'error', code: 'extension_name_required', line: 1 }),
      ]);
      expect(manifest({ name: 7 }).diagnostics).toEqual([expect.objectContaining({ code: 'invalid_field_type' })]);
    });
  });

  it('warns on unknown top-level keys but not on the runtime ones', () => {
    const runtime = Object.fromEntries(COSH_RUNTIME_EXTENSION_KEYS.map((k) => [k, 'x']));
    expect(manifest({ name: 'demo', ...runtime }).diagnostics).toEqual([]);
    expect(manifest({ name: 'demo', colour: 'red' }).diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'unknown_key',
        line: 3,
        message: expect.stringContaining('"colour"'),
      }),
    ]);
  });

  it('warns on unknown group keys', () => {
    const m = hooksOf('Stop', [{ parallel: true, hooks: [{ type: 'command', name: 'h', command: 'x' }] }]);
    expect(m.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'unknown_key',
        message: expect.stringContaining('"parallel"'),
      }),
    ]);
    expect(m.hooks).toHaveLength(1);
  });

  it('rejects a hook type other than command', () => {
    const m = hooksOf('Stop', [{ hooks: [{ type: 'prompt', name: 'h', command: 'x' }] }]);
    expect(m.hooks.map((h) => [h.name, h.invalid?.map((d) => d.code)])).toEqual([['h', ['invalid_hook_type']]]);
    expect(m.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'invalid_hook_type', hook: 'h' }),
    ]);
  });

  it('rejects an unknown event', () => {
    const m = hooksOf('BeforeTool', [{ hooks: [{ type: 'command', name: 'h', command: 'x' }] }]);
    expect(m.diagnostics).toEqual([expect.objectContaining({ severity: 'error', code: 'invalid_event', line: 4 })]);
  });

  it('ignores a group matcher on an event without tools, with one warning', () => {
    const m = hooksOf('UserPromptSubmit', [
      {
        matcher: 'shell',
        hooks: [
          { type: 'command', name: 'a', command: 'x' },
          { type: 'command', name: 'b', command: 'y' },
        ],
      },
    ]);
    expect(m.hooks.map((h) => [h.name, h.matcher])).toEqual([
      ['a', undefined],
      ['b', undefined],
    ]);
    expect(m.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'matcher_ignored' })]);
  });

  it('rejects an invalid group matcher and drops its hooks', () => {
    const m = hooksOf('PreToolUse', [{ matcher: '[', hooks: [{ type: 'command', name: 'a', command: 'x' }] }]);
    expect(m.hooks).toEqual([]);
    expect(m.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'invalid_matcher_pattern', line: 6 }),
    ]);
  });

  it('skips nameless hooks with a warning and keeps them with name null', () => {
    const m = hooksOf('Stop', [{ hooks: [{ type: 'command', command: 'x' }] }]);
    expect(m.hooks).toEqual([expect.objectContaining({ name: null })]);
    expect(m.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'nameless_hook', line: 7 })]);
  });

  it('reports the offending key line of a hook', () => {
    const m = hooksOf('Stop', [{ hooks: [{ type: 'command', name: 'h', command: 'x', timeout: 'soon' }] }]);
    expect(m.diagnostics).toEqual([
      expect.objectContaining({ code: 'invalid_timeout', line: 11, column: 13, hook: 'h' }),
    ]);
  });

  it('turns broken JSON, wrong shapes and binary-looking text into diagnostics', () => {
    expect(parseCoshExtension(FILE, '{\n  "name": "x",\n}', WS).diagnostics).toEqual([
      // a trailing comma, said at the comma (issue 28)
      expect.objectContaining({
        severity: 'error',
        code: 'json_parse_error',
        line: 2,
        column: 14,
        message: "invalid JSON: trailing comma before '}'",
      }),
    ]);
    expect(parseCoshExtension(FILE, '[1]', WS).diagnostics).toEqual([
      expect.objectContaining({ code: 'invalid_section' }),
    ]);
    expect(manifest({ name: 'demo', hooks: [] }).diagnostics).toEqual([
      expect.objectContaining({ code: 'invalid_section' }),
    ]);
    expect(hooksOf('Stop', [{}]).diagnostics).toEqual([
      expect.objectContaining({ code: 'invalid_section', message: expect.stringContaining('hooks is required') }),
    ]);
    expect(hooksOf('Stop', ['x']).diagnostics).toEqual([expect.objectContaining({ code: 'invalid_section' })]);
    expect(parseCoshExtension(FILE, '\u0001\u0002', WS).diagnostics).toEqual([
      expect.objectContaining({ code: 'json_parse_error' }),
    ]);
  });
});

describe('expandCoshVariables', () => {
  it('expands ${extensionPath}, ${workspacePath} and ${/}, and leaves other ${...} to the shell', () => {
    expect(expandCoshVariables('${extensionPath}${/}x ${workspacePath} ${HOME} $extensionPath', '/e', '/w')).toBe(
      '/e/x /w ${HOME} $extensionPath',
    );
  });
});
