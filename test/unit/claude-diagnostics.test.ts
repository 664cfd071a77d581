import { describe, expect, it } from 'vitest';
import { parseSettingsText } from '../../src/dialects/claude/sources/settings.js';
import { parseFrontMatterText } from '../../src/dialects/claude/sources/front-matter.js';

const FILE = '/x/.claude/settings.json';
const check = (settings: object | string, managed = false) => {
  const text = typeof settings === 'string' ? settings : JSON.stringify(settings, null, 2);
  const f = parseSettingsText(text, FILE, { source: 'claude_project', origin: 'project', managed });
  return f;
};
const codes = (settings: object | string) =>
  check(settings).diagnostics.map((d) => [d.severity, d.code, d.message, d.hook ?? null]);
const handler = (event: string, h: object, matcher?: string) => ({
  hooks: { [event]: [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [h] }] },
});
const H = 'project:PreToolUse:1.1';

describe('claude diagnostics (§2.5)', () => {
  it('json_parse_error with line and column; the file is skipped', () => {
    const f = check('{\n  "hooks": {,\n}');
    expect(f.usable).toBe(false);
    expect(f.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['json_parse_error', 2, 13]]);
  });

  it('claude_invalid_setting: hooks loses its hooks; a gate, env or enabledPlugins rejects the file', () => {
    expect(codes({ hooks: [] })).toEqual([['error', 'claude_invalid_setting', 'hooks must be an object', null]]);
    const f = check({ disableAllHooks: 'yes', ...handler('Stop', { type: 'command', command: 'x' }) });
    expect(f.usable).toBe(false);
    expect(f.handlers).toEqual([]);
    expect(f.diagnostics.map((d) => d.message)).toEqual(['disableAllHooks must be a boolean']);
    expect(codes({ env: { A: 1 } })[0]![2]).toBe('env must be an object of strings');
    expect(codes({ enabledPlugins: { a: 'yes' } })[0]![2]).toBe('enabledPlugins must be an object of booleans');
    expect(codes({ allowedHttpHookUrls: 'x' })[0]![2]).toBe('allowedHttpHookUrls must be a list of strings');
  });

  it('claude_unknown_event, with a case hint', () => {
    expect(codes({ hooks: { pretooluse: [], PreModelSwitchh: [] } })).toEqual([
      ['error', 'claude_unknown_event', 'unknown hook event "pretooluse"; did you mean "PreToolUse"?', null],
      ['error', 'claude_unknown_event', 'unknown hook event "PreModelSwitchh"; did you mean "PreModelSwitch"?', null],
    ]);
  });

  it('claude_invalid_group', () => {
    expect(codes({ hooks: { Stop: {} } })).toEqual([
      ['error', 'claude_invalid_group', 'hooks.Stop must be a list of matcher groups', null],
    ]);
    expect(codes({ hooks: { Stop: [{ matcher: '' }, 'x'] } }).map((r) => r[2])).toEqual([
      'hooks.Stop[0] must be an object with a "hooks" list',
      'hooks.Stop[1] must be an object with a "hooks" list',
    ]);
  });

  it('handler type rules', () => {
    expect(codes(handler('Stop', { type: 'shell', command: 'x' }))).toEqual([
      [
        'error',
        'claude_invalid_handler_type',
        'hook type must be one of command, http, mcp_tool, prompt, agent',
        'project:Stop:1.1',
      ],
    ]);
    expect(codes(handler('SessionStart', { type: 'prompt', prompt: 'x' }))).toEqual([
      [
        'error',
        'claude_handler_type_not_allowed',
        '"prompt" hooks are not supported for SessionStart; use a command-type hook instead',
        'project:SessionStart:1.1',
      ],
    ]);
  });

  it('required fields and field types', () => {
    expect(codes(handler('PreToolUse', { type: 'command', command: '' })).map((r) => r[2])).toEqual([
      'command hook requires "command"',
    ]);
    expect(codes(handler('PreToolUse', { type: 'mcp_tool', server: 's' })).map((r) => r[2])).toEqual([
      'mcp_tool hook requires "tool"',
    ]);
    expect(
      codes(handler('PreToolUse', { type: 'command', command: 'x', args: [1], async: 'yes', shell: 'zsh' })).map(
        (r) => [r[1], r[2]],
      ),
    ).toEqual([
      ['claude_invalid_field_type', '"args" must be a list of strings'],
      ['claude_invalid_field_type', '"async" must be a boolean'],
      ['claude_invalid_field_type', '"shell" must be "bash" or "powershell"'],
    ]);
    expect(
      codes(handler('PreToolUse', { type: 'http', url: 'https://x', headers: { A: 1 } })).map((r) => r[2]),
    ).toEqual(['"headers" must be an object of strings']);
    expect(check(handler('PreToolUse', { type: 'command', command: 'x', async: 1 })).handlers[0]!.ok).toBe(false);
  });

  it('timeouts', () => {
    expect(codes(handler('PreToolUse', { type: 'command', command: 'x', timeout: 0 }))).toEqual([
      ['error', 'claude_invalid_timeout', 'timeout must be a positive number of seconds', H],
    ]);
    expect(codes(handler('PreToolUse', { type: 'command', command: 'x', timeout: '5' }))[0]![1]).toBe(
      'claude_invalid_timeout',
    );
    expect(codes(handler('PreToolUse', { type: 'command', command: 'x', timeout: 5000 }))).toEqual([
      [
        'warning',
        'claude_timeout_looks_like_ms',
        'timeout 5000 is over an hour; Claude Code timeouts are seconds, not milliseconds',
        H,
      ],
    ]);
  });

  it('unknown keys and once', () => {
    expect(codes(handler('PreToolUse', { type: 'command', command: 'x', url: 'u', colour: 1, once: true }))).toEqual([
      ['warning', 'claude_unknown_key', '"url" is not a field of command hooks', H],
      ['warning', 'claude_unknown_key', 'unknown key "colour"', H],
      ['warning', 'claude_once_ignored', '"once" is honoured only in skill front matter; ignored', H],
    ]);
    expect(codes({ hooks: { Stop: [{ hooks: [], extra: 1 }] } })).toEqual([
      ['warning', 'claude_unknown_key', 'unknown key "extra"', null],
    ]);
  });

  it('if rules', () => {
    expect(codes(handler('Stop', { type: 'command', command: 'x', if: 'Bash(git *)' }))).toEqual([
      [
        'error',
        'claude_if_not_tool_event',
        '"if" is evaluated only on PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest and PermissionDenied; on Stop this hook never runs',
        'project:Stop:1.1',
      ],
    ]);
    expect(codes(handler('PreToolUse', { type: 'command', command: 'x', if: 'Bash(a) && Bash(b)' }))).toEqual([
      [
        'warning',
        'claude_invalid_if',
        '"if" must be one permission rule such as "Bash(git *)"; hooks fire lets this hook run',
        H,
      ],
    ]);
    expect(codes(handler('PreToolUse', { type: 'command', command: 'x', if: 'WebFetch(domain:x.com)' }))).toEqual([
      [
        'warning',
        'claude_if_not_evaluated',
        'hookctl does not evaluate "WebFetch(domain:x.com)"; hooks fire lets this hook run',
        H,
      ],
    ]);
    for (const rule of ['Bash(git push *)', 'Edit(src/**)', 'Read', 'mcp__memory']) {
      expect(codes(handler('PreToolUse', { type: 'command', command: 'x', if: rule }))).toEqual([]);
    }
  });

  it('matchers', () => {
    expect(codes(handler('Stop', { type: 'command', command: 'x' }, 'Bash'))).toEqual([
      [
        'warning',
        'claude_matcher_ignored',
        'Stop has no matcher; "matcher" is ignored and the hook runs on every Stop',
        'project:Stop:1.1',
      ],
    ]);
    expect(codes(handler('Stop', { type: 'command', command: 'x' }, '*'))).toEqual([]);
    const bad = check(handler('PreToolUse', { type: 'command', command: 'x' }, '(Bash'));
    expect(bad.diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        'claude_invalid_matcher',
        'matcher "(Bash" is not a valid regular expression: Invalid regular expression: /(Bash/: Unterminated group',
      ],
    ]);
    expect(bad.handlers[0]!.ok).toBe(false);
    expect(codes(handler('SessionStart', { type: 'command', command: 'x' }, 'startup|boot'))).toEqual([
      [
        'warning',
        'claude_unknown_matcher_value',
        'matcher value "boot" is not a known source of SessionStart (startup, resume, clear, compact, fork)',
        'project:SessionStart:1.1',
      ],
    ]);
    expect(codes(handler('PreToolUse', { type: 'command', command: 'x' }, 'Frobnicate'))).toEqual([]);
    expect(codes(handler('PreToolUse', { type: 'command', command: 'x' }, 'Bash(git *)'))).toEqual([
      [
        'warning',
        'claude_matcher_is_rule',
        'matcher "Bash(git *)" is read as a regular expression; to filter arguments use "if": "Bash(git *)"',
        H,
      ],
    ]);
  });

  it('command forms', () => {
    expect(codes(handler('PreToolUse', { type: 'command', command: 'node x.js', args: [] }))).toEqual([
      [
        'warning',
        'claude_exec_command_whitespace',
        'with "args", "command" is the executable; "node x.js" contains white space and will not be found',
        H,
      ],
    ]);
    expect(codes(handler('PreToolUse', { type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/x.sh' }))).toEqual([
      [
        'error',
        'claude_plugin_var_outside_plugin',
        'hook command references ${CLAUDE_PLUGIN_ROOT} but the hook is not associated with a plugin',
        H,
      ],
    ]);
    expect(codes(handler('PreToolUse', { type: 'command', command: 'x --key ${user_config.api_key}' }))).toEqual([
      ['error', 'claude_user_config_shell_form', '${user_config.api_key} is not allowed in shell form; use "args"', H],
    ]);
    const exec = check(handler('PreToolUse', { type: 'command', command: 'x', args: ['${user_config.api_key}'] }));
    expect(exec.diagnostics.map((d) => d.code)).toEqual(['claude_user_config_unavailable']);
    expect(exec.handlers[0]).toMatchObject({
      ok: true,
      runnable: false,
      unrunnable_why: 'plugin user_config values are not available to hookctl',
    });
    const ps = check(handler('PreToolUse', { type: 'command', command: 'x', shell: 'powershell' }));
    expect(ps.diagnostics.map((d) => d.message)).toEqual([
      'shell "powershell" hooks are not run by hookctl; hooks fire skips this hook',
    ]);
    expect(ps.handlers[0]!.runnable).toBe(false);
    expect(codes(handler('PreToolUse', { type: 'command', command: 'echo "$TOOL_INPUT"' }))).toEqual([
      [
        'warning',
        'claude_tool_input_env',
        '$TOOL_INPUT is not set by Claude Code; hooks read their input as JSON on stdin',
        H,
      ],
    ]);
  });

  it('http urls', () => {
    expect(codes(handler('PreToolUse', { type: 'http', url: 'ftp://x/y' }))).toEqual([
      ['error', 'claude_invalid_url', 'url "ftp://x/y" is not an http or https URL', H],
    ]);
  });

  it('gates outside managed warn', () => {
    expect(codes({ allowManagedHooksOnly: true })).toEqual([
      [
        'warning',
        'claude_managed_only_setting',
        'allowManagedHooksOnly is read only from managed settings; ignored here',
        null,
      ],
    ]);
    expect(check({ allowManagedHooksOnly: true }, true).diagnostics).toEqual([]);
  });

  it('every diagnostic carries the file, line and column of what it is about', () => {
    const text =
      '{\n  "hooks": {\n    "PreToolUse": [\n      { "hooks": [ { "type": "command", "command": "x", "timeout": -1 } ] }\n    ]\n  }\n}\n';
    expect(check(text).diagnostics.map((d) => [d.file, d.line, d.column])).toEqual([[FILE, 4, 57]]);
  });
});

describe('front matter', () => {
  const skill = (fm: string) =>
    parseFrontMatterText(`---\n${fm}---\nbody\n`, '/w/.claude/skills/s/SKILL.md', {
      source: 'claude_skill',
      kind: 'skill',
      fallbackName: 's',
      originOf: (n) => `skill/project/${n}`,
    });

  it('yaml errors, positions and names', () => {
    expect(skill('name: [\nhooks: [\n').diagnostics.map((d) => d.code)).toEqual(['yaml_parse_error']);
    const r = skill(
      'name: deploy\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          timeout: -2\n          command: x\n',
    );
    expect(r.name).toBe('deploy');
    expect(r.diagnostics.map((d) => [d.code, d.line, d.hook])).toEqual([
      ['claude_invalid_timeout', 7, 'skill/project/deploy:Stop:1.1'],
    ]);
    expect(skill('hooks: [1]\n').diagnostics.map((d) => d.message)).toEqual(['skill hooks must be an object']);
    expect(
      parseFrontMatterText('---\nhooks:\n  Stop: []\n', '/f', {
        source: 'claude_skill',
        kind: 'skill',
        fallbackName: 'f',
        originOf: (n) => n,
      }).diagnostics.map((d) => d.code),
    ).toEqual(['frontmatter_unterminated']);
  });
});
