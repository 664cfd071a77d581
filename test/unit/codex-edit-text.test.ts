import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { jsonCreateHandler, jsonDeleteHandler, jsonUpdateHandler } from '../../src/dialects/codex/edit/hooks-json.js';
import { tomlCreateHandler, tomlDeleteHandler, tomlUpdateHandler } from '../../src/dialects/codex/edit/config-toml.js';
import { CodexEditError } from '../../src/dialects/codex/edit/model.js';
import { removeStateField, setStateField } from '../../src/dialects/codex/edit/state.js';

const cmd = (command: string) => ({ type: 'command', command });

describe('codex hooks.json edits', () => {
  it('creates a new file with 2-space indentation', () => {
    const out = jsonCreateHandler('', 'PreToolUse', '^Bash$', cmd('./g.sh'));
    expect(out.address).toEqual({ event: 'PreToolUse', group: 0, handler: 0 });
    expect(out.text).toBe(
      '{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "^Bash$",\n        "hooks": [\n          {\n            "type": "command",\n            "command": "./g.sh"\n          }\n        ]\n      }\n    ]\n  }\n}\n',
    );
  });

  const FILE = [
    '{',
    '    "description": "mine",',
    '    "hooks": {',
    '        "Stop": [ { "hooks": [ { "type": "command", "command": "a" } ] } ],',
    '        "PreToolUse": [',
    '            { "matcher": "", "hooks": [ { "type": "command", "command": "b" } ] }',
    '        ]',
    '    }',
    '}',
    '',
  ].join('\r\n');

  it('joins the group whose matcher is exactly the one asked for; absent is not ""', () => {
    const joined = jsonCreateHandler(FILE, 'PreToolUse', '', cmd('c'));
    expect(joined.address).toEqual({ event: 'PreToolUse', group: 0, handler: 1 });
    expect(JSON.parse(joined.text).hooks.PreToolUse[0].hooks[1]).toEqual(cmd('c'));
    // Only the changed array is rewritten: the Stop line stays byte for byte, CRLF is kept.
    expect(joined.text).toContain('        "Stop": [ { "hooks": [ { "type": "command", "command": "a" } ] } ],\r\n');
    expect(joined.text.replaceAll('\r\n', '')).not.toContain('\n');
    const added = jsonCreateHandler(FILE, 'PreToolUse', undefined, cmd('c'));
    expect(added.address).toEqual({ event: 'PreToolUse', group: 1, handler: 0 });
    expect(JSON.parse(added.text).hooks.PreToolUse[1]).toEqual({ hooks: [cmd('c')] });
  });

  it('deletes a handler, then an emptied group, then an emptied event', () => {
    const two = jsonCreateHandler(FILE, 'Stop', undefined, cmd('z')).text;
    expect(JSON.parse(jsonDeleteHandler(two, { event: 'Stop', group: 0, handler: 0 }).text).hooks.Stop).toEqual([
      { hooks: [cmd('z')] },
    ]);
    const out = jsonDeleteHandler(FILE, { event: 'Stop', group: 0, handler: 0 }).text;
    expect(JSON.parse(out).hooks).toEqual({ PreToolUse: [{ matcher: '', hooks: [cmd('b')] }] });
    expect(() => jsonDeleteHandler(FILE, { event: 'Stop', group: 3, handler: 0 })).toThrow(CodexEditError);
  });

  it('updates fields in place, unsets, and moves on a new matcher', () => {
    const a = { event: 'PreToolUse', group: 0, handler: 0 };
    const up = jsonUpdateHandler(FILE, a, { set: { timeout: 5 }, unset: [] });
    expect(JSON.parse(up.text).hooks.PreToolUse[0].hooks[0]).toEqual({ ...cmd('b'), timeout: 5 });
    const un = jsonUpdateHandler(up.text, a, { set: {}, unset: ['timeout'] });
    expect(JSON.parse(un.text)).toEqual(JSON.parse(FILE));
    // Alone in the last group and no other group has the matcher: the group's matcher changes.
    const moved = jsonUpdateHandler(FILE, a, { set: {}, unset: [], matcher: 'Bash' });
    expect(moved.address).toEqual(a);
    expect(JSON.parse(moved.text).hooks.PreToolUse).toEqual([{ matcher: 'Bash', hooks: [cmd('b')] }]);
    // With another handler in the group, it moves to a new group at the end.
    const two = jsonCreateHandler(FILE, 'PreToolUse', '', cmd('c')).text;
    const out = jsonUpdateHandler(two, a, { set: {}, unset: [], matcher: null });
    expect(out.address).toEqual({ event: 'PreToolUse', group: 1, handler: 0 });
    expect(JSON.parse(out.text).hooks.PreToolUse).toEqual([{ matcher: '', hooks: [cmd('c')] }, { hooks: [cmd('b')] }]);
  });
});

const TOML = `# my codex config
model = "o3"

[[hooks.PreToolUse]]
matcher = "^Bash$"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "~/bin/guard.sh" # the guard
timeout = 10

[profiles.x]
model = "o4"

[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = "./stop.sh"
`;

describe('codex config.toml edits', () => {
  it('appends a new group after the last table of its event, and keeps every other byte', () => {
    const out = tomlCreateHandler(TOML, 'PreToolUse', 'Edit', { ...cmd('./e.sh'), timeout: 3 });
    expect(out.address).toEqual({ event: 'PreToolUse', group: 1, handler: 0 });
    expect(out.text).toBe(
      TOML.replace(
        'timeout = 10\n\n',
        'timeout = 10\n\n[[hooks.PreToolUse]]\nmatcher = "Edit"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "./e.sh"\ntimeout = 3\n\n',
      ),
    );
    const hooks = (parse(out.text) as { hooks: Record<string, unknown[]> }).hooks;
    expect(hooks.PreToolUse).toHaveLength(2);
  });

  it('appends a new event at the end, and a handler into the group of the same matcher', () => {
    const end = tomlCreateHandler(TOML, 'SessionStart', undefined, cmd('s'));
    expect(end.text).toBe(
      `${TOML}\n[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ntype = "command"\ncommand = "s"\n`,
    );
    const joined = tomlCreateHandler(TOML, 'Stop', undefined, cmd('t'));
    expect(joined.address).toEqual({ event: 'Stop', group: 0, handler: 1 });
    expect(joined.text).toBe(`${TOML}[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "t"\n`);
    expect(tomlCreateHandler('', 'Stop', undefined, cmd('t')).text).toBe(
      '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "t"\n',
    );
    // A regex with a backslash stays readable.
    expect(tomlCreateHandler('', 'PreToolUse', '^mcp__\\w+', cmd('t')).text).toContain("matcher = '^mcp__\\w+'");
  });

  it('rewrites only the changed key lines on update', () => {
    const a = { event: 'PreToolUse', group: 0, handler: 0 };
    const out = tomlUpdateHandler(TOML, a, { set: { timeout: 20, async: true }, unset: [] });
    expect(out.text).toBe(TOML.replace('timeout = 10\n', 'timeout = 20\nasync = true\n'));
    expect(tomlUpdateHandler(out.text, a, { set: {}, unset: ['timeout', 'async'] }).text).toBe(
      TOML.replace('timeout = 10\n', ''),
    );
    // A matcher move of the handler alone in the last group of its event: the matcher line only.
    const moved = tomlUpdateHandler(TOML, a, { set: {}, unset: [], matcher: 'Edit' });
    expect(moved.text).toBe(TOML.replace('matcher = "^Bash$"', 'matcher = "Edit"'));
    expect(tomlUpdateHandler(TOML, a, { set: {}, unset: [], matcher: null }).text).toBe(
      TOML.replace('matcher = "^Bash$"\n', ''),
    );
  });

  it('moves a handler out of a shared group to a new group', () => {
    const two = tomlCreateHandler(TOML, 'PreToolUse', '^Bash$', cmd('second')).text;
    const out = tomlUpdateHandler(
      two,
      { event: 'PreToolUse', group: 0, handler: 1 },
      {
        set: {},
        unset: [],
        matcher: 'Write',
      },
    );
    expect(out.address).toEqual({ event: 'PreToolUse', group: 1, handler: 0 });
    const hooks = (parse(out.text) as { hooks: Record<string, { matcher?: string; hooks: unknown[] }[]> }).hooks;
    expect(hooks.PreToolUse!.map((g) => [g.matcher, g.hooks.length])).toEqual([
      ['^Bash$', 1],
      ['Write', 1],
    ]);
  });

  it('deletes exactly the lines of the removed tables', () => {
    const out = tomlDeleteHandler(TOML, { event: 'PreToolUse', group: 0, handler: 0 });
    expect(out.text).toBe(TOML.replace(/\n\[\[hooks\.PreToolUse\]\][^]*?timeout = 10\n/, ''));
    const two = tomlCreateHandler(TOML, 'Stop', undefined, cmd('t')).text;
    expect(tomlDeleteHandler(two, { event: 'Stop', group: 0, handler: 1 }).text).toBe(TOML);
    const back = tomlCreateHandler(TOML, 'SessionStart', undefined, cmd('s')).text;
    expect(tomlDeleteHandler(back, { event: 'SessionStart', group: 0, handler: 0 }).text).toBe(TOML);
    expect(() => tomlDeleteHandler(TOML, { event: 'Stop', group: 1, handler: 0 })).toThrow(CodexEditError);
  });

  it('refuses an event written as an inline array', () => {
    const inline = '[hooks]\nStop = [{ hooks = [{ type = "command", command = "a" }] }]\n';
    expect(() => tomlCreateHandler(inline, 'Stop', undefined, cmd('b'))).toThrow(/hookctl edits only that form/);
    expect(tomlCreateHandler(inline, 'PreToolUse', undefined, cmd('b')).address.group).toBe(0);
  });
});

describe('[hooks.state."<key>"]', () => {
  const KEY = '/home/me/.codex/config.toml:pre_tool_use:0:0';

  it('creates the table in an empty file, and after the last state table', () => {
    expect(setStateField('', KEY, 'trusted_hash', 'sha256:ab')).toBe(
      `[hooks.state."${KEY}"]\ntrusted_hash = "sha256:ab"\n`,
    );
    const withState = `${TOML}\n[hooks.state."other"]\nenabled = false\n\n[tail]\nx = 1\n`;
    const out = setStateField(withState, KEY, 'trusted_hash', 'sha256:ab');
    expect(out).toBe(
      withState.replace('enabled = false\n', `enabled = false\n\n[hooks.state."${KEY}"]\ntrusted_hash = "sha256:ab"\n`),
    );
    expect((parse(out) as { hooks: { state: Record<string, unknown> } }).hooks.state[KEY]).toEqual({
      trusted_hash: 'sha256:ab',
    });
    expect(setStateField('model = "o3"', KEY, 'enabled', false)).toBe(
      `model = "o3"\n\n[hooks.state."${KEY}"]\nenabled = false\n`,
    );
  });

  it('rewrites a value in place and keeps the other keys', () => {
    const text = `[hooks.state."${KEY}"]\n# reviewed\nenabled = false\ntrusted_hash = "sha256:old"\n`;
    expect(setStateField(text, KEY, 'trusted_hash', 'sha256:new')).toBe(text.replace('old', 'new'));
    expect(setStateField(`[hooks.state."${KEY}"]\nenabled = false\n`, KEY, 'trusted_hash', 'sha256:n')).toBe(
      `[hooks.state."${KEY}"]\ntrusted_hash = "sha256:n"\nenabled = false\n`,
    );
  });

  it('removes a field, and the table when nothing is left', () => {
    const text = `a = 1\n\n[hooks.state."${KEY}"]\nenabled = false\n\n[b]\nc = 2\n`;
    expect(removeStateField(text, KEY, 'enabled')).toBe('a = 1\n\n[b]\nc = 2\n');
    const two = `[hooks.state."${KEY}"]\nenabled = false\ntrusted_hash = "sha256:x"\n`;
    expect(removeStateField(two, KEY, 'enabled')).toBe(`[hooks.state."${KEY}"]\ntrusted_hash = "sha256:x"\n`);
    expect(removeStateField('a = 1\n', KEY, 'enabled')).toBe('a = 1\n');
  });

  it('refuses a state entry written inline', () => {
    const inline = `[hooks.state]\n"${KEY}" = { enabled = false }\n`;
    expect(() => setStateField(inline, KEY, 'trusted_hash', 'x')).toThrow(/inline table or dotted keys/);
    expect(() => setStateField('[hooks]\nstate = {}\n', KEY, 'enabled', false)).toThrow(CodexEditError);
  });
});
