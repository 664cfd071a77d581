// Every diagnostic of codex.md §2.2, through the loader on temporary Codex setups: the code,
// severity, message, file, line of the offending key and hook name, and what it does to the
// hooks' status (a rejected file has no active hook; a skipped handler is invalid alone).
import { writeFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/declarations/diagnostics.js';
import { loadCodexSources } from '../../src/dialects/codex/sources/load.js';
import { codexHooksJson, makeCodexTree, trustProject, type CodexTree } from '../support/codex-tree.js';

let t: CodexTree;
beforeEach(() => {
  t = makeCodexTree();
});

const load = () => loadCodexSources(t.loc(), t.env);
const userJson = (text: string) => t.write('home/.codex/hooks.json', text);
const userToml = (text: string) => t.write('home/.codex/config.toml', text);
const tomlStopOnly = '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "y"\n';
const withCode = (ds: Diagnostic[], code: string) => ds.filter((d) => d.code === code);

async function only(code: string): Promise<Diagnostic> {
  const cat = await load();
  const found = withCode(cat.diagnostics, code);
  expect(found, JSON.stringify(cat.diagnostics, null, 1)).toHaveLength(1);
  return found[0]!;
}

describe('codex §2.2: whole-file rejections of hooks.json', () => {
  it('an unknown root key rejects the file: no hook is active', async () => {
    const file = userJson(
      '{\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]},\n  "version": 1\n}\n',
    );
    const d = await only('codex_file_rejected');
    expect(d).toMatchObject({
      severity: 'error',
      file,
      line: 3,
      message:
        'Codex ignores every hook in this file: unknown field "version"; only "description" and "hooks" are allowed',
    });
    const [decl] = (await load()).declarations;
    expect(decl).toMatchObject({ status: 'invalid', why: d.message, name: 'user/hooks.json:Stop:1.1' });
    expect(decl!.diagnostics).toContainEqual(d);
  });

  it('a duplicate field rejects the file, at the second copy', async () => {
    userJson('{"hooks": {"Stop": [{"hooks": [{"type": "command",\n "command": "x",\n "command": "y"}]}]}}');
    const d = await only('codex_file_rejected');
    expect(d).toMatchObject({
      line: 3,
      message: 'Codex ignores every hook in this file: duplicate field "command"',
      hook: 'user/hooks.json:Stop:1.1',
    });
  });

  it('commandWindows and command_windows together are a duplicate field', async () => {
    userJson(codexHooksJson('Stop', { type: 'command', command: 'x', commandWindows: 'a', command_windows: 'b' }));
    const d = await only('codex_file_rejected');
    expect(d.message).toContain('duplicate field "commandWindows"');
    expect(d.hook).toBe('user/hooks.json:Stop:1.1');
  });

  it('a type error names the path and the type', async () => {
    userJson(codexHooksJson('Stop', { type: 'command', command: 'x', async: 'yes' }));
    const d = await only('codex_file_rejected');
    expect(d.message).toBe('Codex ignores every hook in this file: hooks.Stop[0].hooks[0].async must be a boolean');
    expect(d.hook).toBe('user/hooks.json:Stop:1.1');
  });

  it('every other hook of a rejected file is invalid too', async () => {
    userJson(
      JSON.stringify({
        hooks: {
          Stop: [{ hooks: [{ type: 'command', command: 'ok' }] }],
          PreToolUse: [{ hooks: [{ type: 'command', command: 'x', timeout: 1.5 }] }],
        },
      }),
    );
    const cat = await load();
    expect(withCode(cat.diagnostics, 'codex_invalid_timeout')[0]!.message).toBe(
      'timeout must be a whole number of seconds',
    );
    expect(cat.declarations.map((d) => d.status)).toEqual(['invalid', 'invalid']);
    expect(cat.declarations.find((d) => d.event === 'Stop')!.why).toBe('timeout must be a whole number of seconds');
  });

  it.each([
    ['an event that is not a list', { Stop: {} }, 'hooks.Stop must be a list of matcher groups'],
    ['a group without a hooks list', { Stop: [{ matcher: 'x' }] }, 'hooks.Stop[0] must be a table with a "hooks" list'],
    ['a group that is not a table', { Stop: ['x'] }, 'hooks.Stop[0] must be a table with a "hooks" list'],
  ])('codex_invalid_group: %s', async (_, hooks, message) => {
    userJson(JSON.stringify({ hooks }));
    expect((await only('codex_invalid_group')).message).toBe(message);
  });

  it.each([[{ command: 'x' }], [{ type: 'shell', command: 'x' }]])('codex_invalid_handler_type: %j', async (h) => {
    userJson(codexHooksJson('Stop', h));
    const d = await only('codex_invalid_handler_type');
    expect(d.message).toBe('hook type must be one of command, mcp_tool, prompt, agent');
    expect((await load()).declarations[0]!.status).toBe('invalid');
  });

  it('codex_field_required: a missing command rejects the file', async () => {
    userJson(codexHooksJson('Stop', { type: 'command' }));
    expect((await only('codex_field_required')).message).toBe('command hook requires "command"');
  });

  it('codex_field_required: a blank mcp_tool server skips that handler only', async () => {
    userJson(
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              hooks: [
                { type: 'mcp_tool', server: ' ', tool: 't' },
                { type: 'command', command: 'ok' },
              ],
            },
          ],
        },
      }),
    );
    const d = await only('codex_field_required');
    expect(d).toMatchObject({ message: 'mcp_tool hook requires "server"', hook: 'user/hooks.json:PreToolUse:1.1' });
    expect((await load()).declarations.map((x) => x.status)).toEqual(['invalid', 'active']);
  });

  it('codex_mcp_input_not_toml: an input holding null rejects the file', async () => {
    userJson(codexHooksJson('PreToolUse', { type: 'mcp_tool', server: 's', tool: 't', input: { a: [null] } }));
    expect((await only('codex_mcp_input_not_toml')).message).toBe(
      'mcp_tool input must be representable as TOML (no null values)',
    );
  });

  it.each([[-1], [1.5], ['10']])('codex_invalid_timeout: %j', async (timeout) => {
    userJson(codexHooksJson('Stop', { type: 'command', command: 'x', timeout }));
    expect((await only('codex_invalid_timeout')).line).toBe(9);
  });

  it('a broken JSON file is json_parse_error', async () => {
    userJson('{"hooks": ');
    expect((await only('json_parse_error')).severity).toBe('error');
  });
});

describe('codex §2.2: config.toml', () => {
  it('a type error under [hooks] is Codex failing to load the file', async () => {
    const file = userToml(
      'model = "o3"\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "x"\ntimeout = 2.0\n',
    );
    const d = await only('codex_file_rejected');
    expect(d).toMatchObject({
      file,
      line: 7,
      message: 'Codex cannot load this file: timeout must be a whole number of seconds',
      hook: 'user/config.toml:Stop:1.1',
    });
    expect((await load()).declarations[0]!.status).toBe('invalid');
  });

  it('a TOML syntax error is toml_parse_error', async () => {
    userToml('[hooks\n');
    expect((await only('toml_parse_error')).severity).toBe('error');
  });

  it('keys outside [hooks] are Codex’s and not judged', async () => {
    userToml('model = 1\n[tui]\nx = "y"\n');
    expect((await load()).diagnostics).toEqual([]);
  });
});

describe('codex §2.2: handlers Codex skips', () => {
  it('codex_unknown_event, with a suggestion', async () => {
    const file = userJson('{"hooks": {\n"preToolUse": []}}');
    expect(await only('codex_unknown_event')).toMatchObject({
      severity: 'error',
      file,
      line: 2,
      message: 'unknown hook event "preToolUse"; did you mean "PreToolUse"?',
    });
  });

  it('codex_unknown_event without a close name has no suggestion', async () => {
    userJson('{"hooks": {"Zzzzzzzzzz": []}}');
    expect((await only('codex_unknown_event')).message).toBe('unknown hook event "Zzzzzzzzzz"');
  });

  it('codex_empty_command', async () => {
    userJson(codexHooksJson('Stop', { type: 'command', command: '  ' }));
    const d = await only('codex_empty_command');
    expect(d).toMatchObject({ message: 'hook command is empty; Codex skips it', hook: 'user/hooks.json:Stop:1.1' });
    expect((await load()).declarations[0]).toMatchObject({ status: 'invalid', why: d.message });
  });

  it.each(['prompt', 'agent'])('codex_handler_unsupported: %s', async (type) => {
    userJson(codexHooksJson('Stop', { type, prompt: 'x' }));
    expect((await only('codex_handler_unsupported')).message).toBe(
      `${type} hooks are not supported by Codex yet; Codex skips this hook`,
    );
  });

  it('codex_mcp_not_supported on SessionEnd', async () => {
    userJson(codexHooksJson('SessionEnd', { type: 'mcp_tool', server: 's', tool: 't' }));
    expect((await only('codex_mcp_not_supported')).message).toBe(
      'mcp_tool hooks are not supported on SessionEnd; Codex skips this hook',
    );
  });

  it('codex_invalid_matcher skips the whole group, on events with a matcher field', async () => {
    userJson(
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: '(?=x)',
              hooks: [
                { type: 'command', command: 'a' },
                { type: 'command', command: 'b' },
              ],
            },
          ],
        },
      }),
    );
    const d = await only('codex_invalid_matcher');
    expect(d.message).toBe(
      'matcher "(?=x)" is not a valid regular expression: look-around is not supported; Codex skips this group',
    );
    expect((await load()).declarations.map((x) => x.status)).toEqual(['invalid', 'invalid']);
  });

  it('codex_matcher_ignored on Stop, never codex_invalid_matcher', async () => {
    userJson(codexHooksJson('Stop', { type: 'command', command: 'x' }, '(?=x'));
    const cat = await load();
    expect(withCode(cat.diagnostics, 'codex_invalid_matcher')).toEqual([]);
    expect(withCode(cat.diagnostics, 'codex_matcher_ignored')[0]!.message).toBe(
      'Stop has no matcher; "matcher" is ignored and the hook runs on every Stop',
    );
    expect(cat.declarations[0]!.status).toBe('active');
  });
});

describe('codex §2.2: warnings the hook survives', () => {
  it('codex_timeout_clamped, codex_timeout_zero, codex_async_forced_sync', async () => {
    userJson(
      JSON.stringify({
        hooks: {
          SessionEnd: [{ hooks: [{ type: 'command', command: 'x', timeout: 9, async: true }] }],
          Stop: [{ hooks: [{ type: 'command', command: 'y', timeout: 0 }] }],
        },
      }),
    );
    const cat = await load();
    expect(withCode(cat.diagnostics, 'codex_timeout_clamped')[0]!.message).toBe(
      'SessionEnd hook timeout 9s is above the 3s maximum; Codex uses 3s',
    );
    expect(withCode(cat.diagnostics, 'codex_timeout_zero')[0]!.message).toBe('timeout 0 is raised to 1s');
    expect(withCode(cat.diagnostics, 'codex_async_forced_sync')[0]!.message).toBe(
      'async SessionEnd hooks run synchronously',
    );
    const end = cat.declarations.find((d) => d.event === 'SessionEnd')!;
    expect(end).toMatchObject({ status: 'active', mode: 'sync', timeout_ms: 3000 });
    expect(cat.declarations.find((d) => d.event === 'Stop')!.timeout_ms).toBe(1000);
  });

  it('codex_context_limit_ignored', async () => {
    userJson(codexHooksJson('Stop', { type: 'command', command: 'x', additionalContextLimit: 10 }));
    expect((await only('codex_context_limit_ignored')).message).toBe('additionalContextLimit has no effect on Stop');
  });

  it('codex_unknown_key in groups and handlers', async () => {
    userJson(JSON.stringify({ hooks: { Stop: [{ if: 1, hooks: [{ type: 'command', command: 'x', once: true }] }] } }));
    const ds = withCode((await load()).diagnostics, 'codex_unknown_key');
    expect(ds.map((d) => d.message)).toEqual([
      'unknown key "if"; Codex ignores it',
      'unknown key "once"; Codex ignores it',
    ]);
    expect(ds.every((d) => d.severity === 'warning')).toBe(true);
  });

  it('codex_both_representations', async () => {
    const json = userJson(codexHooksJson('Stop', { type: 'command', command: 'x' }));
    const toml = userToml('[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "y"\n');
    expect((await only('codex_both_representations')).message).toBe(
      `loading hooks from both ${json} and ${toml}; prefer a single representation for this layer`,
    );
  });

  it('no codex_both_representations when one of the two declares no handler', async () => {
    userJson('{"hooks": {"Stop": []}}');
    userToml(tomlStopOnly);
    expect(withCode((await load()).diagnostics, 'codex_both_representations')).toEqual([]);
  });

  it('codex_state_ignored outside the user config.toml', async () => {
    t.write('home/.codex/config.toml', trustProject(t.projectRoot));
    t.write('proj/.codex/config.toml', '[hooks.state."k"]\nenabled = false\n');
    expect((await only('codex_state_ignored')).message).toBe(
      '[hooks.state] is read only from the user config.toml; ignored here',
    );
  });

  it('codex_state_ignored in requirements.toml', async () => {
    const file = t.write('etc-codex/requirements.toml', '[hooks.state."k"]\nenabled = false\n');
    expect(await only('codex_state_ignored')).toMatchObject({ file, line: 1 });
  });

  it('codex_invalid_state', async () => {
    userToml('[hooks.state."a"]\nenabled = "no"\n[hooks.state."b"]\ntrusted_hash = "sha256:x"\n');
    expect((await only('codex_invalid_state')).message).toBe(
      'hooks.state."a" must be a table with "enabled" (boolean) and "trusted_hash" (string); Codex ignores it',
    );
  });

  it('codex_untrusted and codex_modified carry the hashes', async () => {
    const file = userJson(
      JSON.stringify({
        hooks: {
          Stop: [
            {
              hooks: [
                { type: 'command', command: 'a' },
                { type: 'command', command: 'b' },
              ],
            },
          ],
        },
      }),
    );
    userToml(`[hooks.state.${JSON.stringify(`${file}:stop:0:1`)}]\ntrusted_hash = "sha256:old"\n`);
    const cat = await load();
    const [a, b] = cat.declarations.map((d) => d.extra as { current_hash: string });
    expect(withCode(cat.diagnostics, 'codex_untrusted')[0]).toMatchObject({
      severity: 'warning',
      hook: 'user/hooks.json:Stop:1.1',
      message: `hook is not trusted; Codex skips it until it is trusted (current hash ${a!.current_hash})`,
    });
    expect(withCode(cat.diagnostics, 'codex_modified')[0]).toMatchObject({
      hook: 'user/hooks.json:Stop:1.2',
      message: `hook changed since it was trusted; Codex skips it (trusted sha256:old, current ${b!.current_hash})`,
    });
  });

  it('codex_hooks_disabled and codex_deprecated_feature_key', async () => {
    userJson(codexHooksJson('Stop', { type: 'command', command: 'x' }));
    const file = userToml('[features]\ncodex_hooks = false\n');
    const cat = await load();
    expect(withCode(cat.diagnostics, 'codex_deprecated_feature_key')[0]!.message).toBe(
      '[features] codex_hooks is a deprecated alias; use [features] hooks',
    );
    const why = `hooks are turned off: [features] codex_hooks = false in ${file}`;
    expect(withCode(cat.diagnostics, 'codex_hooks_disabled')[0]).toMatchObject({ message: why, file, line: 2 });
    expect(cat.declarations[0]).toMatchObject({ status: 'disabled', why, enabled: false });
  });

  it('codex_project_untrusted', async () => {
    t.write('proj/.codex/hooks.json', codexHooksJson('Stop', { type: 'command', command: 'x' }));
    expect((await only('codex_project_untrusted')).message).toBe(
      `project "${t.projectRoot}" is not trusted; Codex does not load its .codex/ layers`,
    );
  });

  it('codex_plugin_not_installed', async () => {
    userToml('[plugins."p@market"]\nenabled = true\n');
    expect((await only('codex_plugin_not_installed')).message).toBe(
      `plugin "p@market" is enabled but no copy is installed under ${t.codexHome}/plugins/cache`,
    );
  });

  it('path_escapes_root: a manifest hooks path outside the plugin root', async () => {
    t.write('plug/.codex-plugin/plugin.json', JSON.stringify({ name: 'p', hooks: ['../x.json', 'h.json'] }));
    const cat = await loadCodexSources(t.loc([`${t.base}/plug`]), t.env);
    expect(withCode(cat.diagnostics, 'path_escapes_root')).toHaveLength(2);
  });

  it('binary files and invalid UTF-8 are the shared codes', async () => {
    t.write('home/.codex/hooks.json', '\u0000\u0001');
    expect((await only('binary_file')).severity).toBe('error');
    writeFileSync(t.write('home/.codex/hooks.json', ''), Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    expect((await only('invalid_utf8')).severity).toBe('error');
  });
});
