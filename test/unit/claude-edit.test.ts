import { describe, expect, it } from 'vitest';
import { appendItem, detectStyle, removeItem, removeProperty, setProperty } from '../../src/edit/json-edit.js';
import {
  createHandler,
  deleteHandler,
  parseHookName,
  setDisableAllHooks,
  updateHandler,
} from '../../src/dialects/claude/edit/settings-edit.js';

const S2 = detectStyle('{\n  "a": 1\n}');

describe('json edits keep every other byte', () => {
  it('detects indentation and line endings', () => {
    expect(detectStyle('{\n    "a": 1\n}')).toEqual({ unit: '    ', eol: '\n' });
    expect(detectStyle('{\r\n\t"a": 1\r\n}')).toEqual({ unit: '\t', eol: '\r\n' });
    expect(detectStyle('{}')).toEqual({ unit: '  ', eol: '\n' });
  });

  it('adds, replaces and removes object entries in place', () => {
    const text = '{\n  "model": "x",   "odd" :  true,\n  "env": {"A": "1"}\n}\n';
    const added = setProperty(text, [], 'hooks', { Stop: [] }, S2);
    expect(added).toBe(
      '{\n  "model": "x",   "odd" :  true,\n  "env": {"A": "1"},\n  "hooks": {\n    "Stop": []\n  }\n}\n',
    );
    expect(setProperty(text, ['env'], 'B', '2', S2)).toBe(
      '{\n  "model": "x",   "odd" :  true,\n  "env": {"A": "1", "B": "2"}\n}\n',
    );
    expect(setProperty(text, [], 'odd', false, S2)).toBe(
      '{\n  "model": "x",   "odd" :  false,\n  "env": {"A": "1"}\n}\n',
    );
    expect(removeProperty(added, [], 'hooks')).toBe(text);
    expect(removeProperty(text, [], 'model')).toBe('{\n  "odd" :  true,\n  "env": {"A": "1"}\n}\n');
    expect(removeProperty('{ "a": 1 }', [], 'a')).toBe('{}');
  });

  it('arrays: append into empty and full lists, remove first, middle and last', () => {
    const t = '{\n  "l": [\n    1,\n    2,\n    3\n  ]\n}';
    expect(appendItem(t, ['l'], { a: 1 }, S2)).toBe(
      '{\n  "l": [\n    1,\n    2,\n    3,\n    {\n      "a": 1\n    }\n  ]\n}',
    );
    expect(appendItem('{\n  "l": []\n}', ['l'], 4, S2)).toBe('{\n  "l": [\n    4\n  ]\n}');
    expect(removeItem(t, ['l'], 0)).toBe('{\n  "l": [\n    2,\n    3\n  ]\n}');
    expect(removeItem(t, ['l'], 1)).toBe('{\n  "l": [\n    1,\n    3\n  ]\n}');
    expect(removeItem(t, ['l'], 2)).toBe('{\n  "l": [\n    1,\n    2\n  ]\n}');
  });

  it('CRLF and tabs are followed', () => {
    const t = '{\r\n\t"hooks": {}\r\n}\r\n';
    expect(setProperty(t, ['hooks'], 'Stop', [], detectStyle(t))).toBe(
      '{\r\n\t"hooks": {\r\n\t\t"Stop": []\r\n\t}\r\n}\r\n',
    );
  });
});

describe('settings edits', () => {
  const h = (command: string) => ({ type: 'command', command });

  it('create: into an empty file, a new event, an existing group by exact matcher, a new group', () => {
    const a = createHandler('', 'PreToolUse', 'Bash', h('one'));
    expect(a).toEqual({
      ok: true,
      address: { event: 'PreToolUse', group: 1, index: 1 },
      text: '{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Bash",\n        "hooks": [\n          {\n            "type": "command",\n            "command": "one"\n          }\n        ]\n      }\n    ]\n  }\n}\n',
    });
    if (!a.ok) return;
    const b = createHandler(a.text, 'PreToolUse', 'Bash', h('two'));
    expect(b.ok && b.address).toEqual({ event: 'PreToolUse', group: 1, index: 2 });
    const c = createHandler(b.ok ? b.text : '', 'PreToolUse', 'Edit|Write', h('three'));
    expect(c.ok && c.address).toEqual({ event: 'PreToolUse', group: 2, index: 1 });
    const d = createHandler(c.ok ? c.text : '', 'PreToolUse', undefined, h('four'));
    expect(d.ok && d.address).toEqual({ event: 'PreToolUse', group: 3, index: 1 });
    const e = createHandler(d.ok ? d.text : '', 'Stop', undefined, h('five'));
    expect(e.ok && e.address).toEqual({ event: 'Stop', group: 1, index: 1 });
    expect(JSON.parse(e.ok ? e.text : '')).toEqual({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [h('one'), h('two')] },
          { matcher: 'Edit|Write', hooks: [h('three')] },
          { hooks: [h('four')] },
        ],
        Stop: [{ hooks: [h('five')] }],
      },
    });
  });

  it('create refuses an identical handler in the target group', () => {
    const t = JSON.stringify({ hooks: { Stop: [{ hooks: [{ command: 'x', type: 'command' }] }] } });
    expect(createHandler(t, 'Stop', undefined, h('x'))).toEqual({
      ok: false,
      refusal: 'hook_already_exists',
      message: '1.1',
    });
  });

  it('create keeps the rest of the file byte for byte', () => {
    const t =
      '{\n    "model": "opus",\n    "permissions": { "allow": ["Bash(ls)"] },\n    "hooks": {\n        "Stop": [ { "hooks": [ { "type": "command", "command": "a" } ] } ]\n    }\n}\n';
    const r = createHandler(t, 'Stop', undefined, h('b'));
    expect(r.ok && r.text).toBe(
      '{\n    "model": "opus",\n    "permissions": { "allow": ["Bash(ls)"] },\n    "hooks": {\n        "Stop": [ { "hooks": [ { "type": "command", "command": "a" }, {"type": "command", "command": "b"} ] } ]\n    }\n}\n',
    );
  });

  it('delete removes the handler, then an emptied group, then an emptied event', () => {
    const t = JSON.stringify(
      {
        hooks: {
          Stop: [{ hooks: [h('a'), h('b')] }, { matcher: 'x', hooks: [h('c')] }],
          PreToolUse: [{ hooks: [h('d')] }],
        },
      },
      null,
      2,
    );
    const one = deleteHandler(t, { event: 'Stop', group: 1, index: 1 });
    expect(one.ok && JSON.parse(one.text).hooks.Stop[0].hooks).toEqual([h('b')]);
    const two = deleteHandler(t, { event: 'Stop', group: 2, index: 1 });
    expect(two.ok && JSON.parse(two.text).hooks.Stop).toHaveLength(1);
    const three = deleteHandler(t, { event: 'PreToolUse', group: 1, index: 1 });
    expect(three.ok && JSON.parse(three.text).hooks).toEqual({ Stop: JSON.parse(t).hooks.Stop });
    expect(deleteHandler(t, { event: 'Stop', group: 9, index: 1 })).toMatchObject({
      ok: false,
      refusal: 'hook_not_found',
    });
  });

  it('update sets and unsets fields in place; a matcher change moves the handler', () => {
    const t = JSON.stringify(
      { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ ...h('a'), timeout: 5, if: 'Bash(git *)' }, h('b')] }] } },
      null,
      2,
    );
    const u = updateHandler(
      t,
      { event: 'PreToolUse', group: 1, index: 1 },
      { set: { timeout: 9, 'headers.X': 'y' }, unset: ['if'] },
    );
    expect(u.ok && JSON.parse(u.text).hooks.PreToolUse[0].hooks[0]).toEqual({
      ...h('a'),
      timeout: 9,
      headers: { X: 'y' },
    });
    const m = updateHandler(t, { event: 'PreToolUse', group: 1, index: 2 }, { set: {}, unset: [], matcher: 'Edit' });
    expect(m.ok && m.address).toEqual({ event: 'PreToolUse', group: 2, index: 1 });
    const n = updateHandler(
      t,
      { event: 'PreToolUse', group: 1, index: 1 },
      { set: {}, unset: ['timeout'], matcher: null },
    );
    expect(n.ok && JSON.parse(n.text).hooks.PreToolUse[1]).toEqual({ hooks: [{ ...h('a'), if: 'Bash(git *)' }] });
  });

  it('disableAllHooks on and off', () => {
    expect(setDisableAllHooks('', true)).toBe('{\n  "disableAllHooks": true\n}\n');
    const t = '{\n  "model": "x"\n}\n';
    const on = setDisableAllHooks(t, true);
    expect(on).toBe('{\n  "model": "x",\n  "disableAllHooks": true\n}\n');
    expect(setDisableAllHooks(on, false)).toBe(t);
    expect(setDisableAllHooks('', false)).toBe('');
  });

  it('a BOM is kept', () => {
    const r = createHandler('\uFEFF{}', 'Stop', undefined, h('x'));
    expect(r.ok && r.text.startsWith('\uFEFF{\n')).toBe(true);
  });

  it('names parse from the right', () => {
    expect(parseHookName('project:PreToolUse:2.1')).toEqual({
      origin: 'project',
      event: 'PreToolUse',
      group: 2,
      index: 1,
    });
    expect(parseHookName('skill/fmt@m/fmt:lint:Stop:1.3')).toEqual({
      origin: 'skill/fmt@m/fmt:lint',
      event: 'Stop',
      group: 1,
      index: 3,
    });
    expect(parseHookName('project:Stop:0.1')).toBeUndefined();
    expect(parseHookName('guard')).toBeUndefined();
  });
});
