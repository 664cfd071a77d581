import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCoshConfig } from '../../src/dialects/cosh/config.js';

const FILE = '/cfg/config.toml';
const fixture = fileURLToPath(new URL('../fixtures/cosh/config/config.toml', import.meta.url));

function codes(text: string) {
  return parseCoshConfig(FILE, text).diagnostics.map((d) => `${d.severity}:${d.code}@${d.line}`);
}

describe('cosh config.toml layer', () => {
  it('reads the seed form: name, command, timeout, matcher, env', () => {
    const layer = parseCoshConfig(fixture, readFileSync(fixture, 'utf8'));
    expect(layer.diagnostics).toEqual([]);
    expect(layer.enabled).toEqual({ value: true, line: 6 });
    expect([...layer.events.keys()]).toEqual(['PreToolUse', 'SessionStart']);
    expect(layer.events.get('PreToolUse')).toEqual([
      {
        event: 'PreToolUse',
        name: 'security-check',
        command: '/usr/local/bin/my-security-hook',
        timeout_ms: 5000,
        matcher: '^shell$',
        env: { POLICY: 'strict' },
        file: fixture,
        line: 8,
      },
      {
        event: 'PreToolUse',
        name: 'audit',
        command: 'logger -t cosh audit',
        timeout_ms: 5000,
        env: {},
        file: fixture,
        line: 15,
      },
    ]);
    expect(layer.events.get('SessionStart')![0]).toMatchObject({ name: 'context-loader', timeout_ms: 3000, line: 19 });
  });

  it('defaults the timeout to 5000 ms and requires a positive integer', () => {
    const ok = parseCoshConfig(FILE, '[[hooks.Stop]]\nname = "a"\ncommand = "true"\n');
    expect(ok.events.get('Stop')![0]!.timeout_ms).toBe(5000);
    for (const bad of ['0', '-5', '1.5', '"5s"']) {
      const layer = parseCoshConfig(FILE, `[[hooks.Stop]]\nname = "a"\ncommand = "true"\ntimeout = ${bad}\n`);
      // kept only to be shown, with its errors (SPEC §7.2)
      expect(layer.events.get('Stop')!.map((s) => [s.name, s.invalid?.map((d) => d.code)])).toEqual([
        ['a', ['invalid_timeout']],
      ]);
      expect(layer.diagnostics).toEqual([
        expect.objectContaining({ severity: 'error', code: 'invalid_timeout', line: 4, hook: 'a' }),
      ]);
    }
  });

  it('skips a nameless hook with a warning, keeping it as a spec with name null', () => {
    const layer = parseCoshConfig(FILE, '[[hooks.Stop]]\ncommand = "true"\n');
    expect(layer.events.get('Stop')).toEqual([expect.objectContaining({ name: null, command: 'true' })]);
    expect(layer.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'nameless_hook', line: 1, source: 'cosh_config' }),
    ]);
  });

  it('treats an empty name as no name', () => {
    expect(codes('[[hooks.Stop]]\nname = "  "\ncommand = "true"\n')).toEqual(['warning:nameless_hook@2']);
  });

  it('rejects an unknown event name, with a hint for a case slip', () => {
    const layer = parseCoshConfig(
      FILE,
      '[[hooks.PreToolUse]]\nname = "a"\ncommand = "x"\n\n[[hooks.pretooluse]]\nname = "b"\ncommand = "y"\n',
    );
    expect(layer.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'invalid_event',
        line: 5,
        message: expect.stringContaining('did you mean "PreToolUse"'),
      }),
    ]);
    expect([...layer.events.keys()]).toEqual(['PreToolUse']);
  });

  it('names the CompozyOS syntax when a cosh layer holds [[hooks.declarations]]', () => {
    const layer = parseCoshConfig(FILE, '[[hooks.declarations]]\nname = "a"\n');
    expect(layer.diagnostics[0]).toMatchObject({
      code: 'invalid_event',
      message: expect.stringContaining('CompozyOS'),
    });
  });

  it('warns on unknown keys in a hook and under [hooks], at their line', () => {
    const text = '[hooks]\nenabled = true\nverbose = 1\n\n[[hooks.Stop]]\nname = "a"\ncommand = "x"\nretries = 3\n';
    expect(codes(text)).toEqual(['warning:unknown_key@3', 'warning:unknown_key@8']);
    expect(parseCoshConfig(FILE, text).events.get('Stop')).toHaveLength(1);
  });

  it('keeps a matcher only on tool events; elsewhere it is ignored with a warning', () => {
    const tool = parseCoshConfig(FILE, '[[hooks.PostToolUseFailure]]\nname = "a"\ncommand = "x"\nmatcher = "shell"\n');
    expect(tool.events.get('PostToolUseFailure')![0]!.matcher).toBe('shell');
    expect(tool.diagnostics).toEqual([]);

    const other = parseCoshConfig(FILE, '[[hooks.Stop]]\nname = "a"\ncommand = "x"\nmatcher = "shell"\n');
    expect(other.events.get('Stop')![0]!.matcher).toBeUndefined();
    expect(other.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'matcher_ignored', line: 4, hook: 'a' }),
    ]);
  });

  it('treats an empty matcher as every tool', () => {
    const layer = parseCoshConfig(FILE, '[[hooks.PreToolUse]]\nname = "a"\ncommand = "x"\nmatcher = ""\n');
    expect(layer.events.get('PreToolUse')![0]!.matcher).toBeUndefined();
    expect(layer.diagnostics).toEqual([]);
  });

  it('rejects an invalid regex matcher', () => {
    const layer = parseCoshConfig(FILE, '[[hooks.PreToolUse]]\nname = "a"\ncommand = "x"\nmatcher = "(shell"\n');
    expect(layer.events.get('PreToolUse')!.map((s) => s.invalid?.map((d) => d.code))).toEqual([
      ['invalid_matcher_pattern'],
    ]);
    expect(layer.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'invalid_matcher_pattern', line: 4 }),
    ]);
  });

  it('requires a string command', () => {
    expect(codes('[[hooks.Stop]]\nname = "a"\n')).toEqual(['error:command_required@1']);
    expect(codes('[[hooks.Stop]]\nname = "a"\ncommand = ["sh", "-c"]\n')).toEqual(['error:invalid_field_type@3']);
    expect(codes('[[hooks.Stop]]\nname = "a"\ncommand = ""\n')).toEqual(['error:command_required@3']);
  });

  it('requires env to be a table of strings', () => {
    expect(codes('[[hooks.Stop]]\nname = "a"\ncommand = "x"\nenv = { A = 1 }\n')).toEqual([
      'error:invalid_field_type@4',
    ]);
    expect(codes('[[hooks.Stop]]\nname = "a"\ncommand = "x"\n[hooks.Stop.env]\nA = "1"\n')).toEqual([]);
    expect(
      parseCoshConfig(FILE, '[[hooks.Stop]]\nname = "a"\ncommand = "x"\n[hooks.Stop.env]\nA = "1"\n').events.get(
        'Stop',
      )![0]!.env,
    ).toEqual({
      A: '1',
    });
  });

  it('requires [hooks] enabled to be a boolean', () => {
    const layer = parseCoshConfig(FILE, '[hooks]\nenabled = "no"\n');
    expect(layer.enabled).toBeUndefined();
    expect(layer.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'invalid_field_type', line: 2 }),
    ]);
  });

  it('reads dotted and inline forms', () => {
    const layer = parseCoshConfig(FILE, 'hooks.enabled = false\nhooks.Stop = [{ name = "a", command = "x" }]\n');
    expect(layer.enabled).toEqual({ value: false, line: 1 });
    expect(layer.events.get('Stop')).toEqual([expect.objectContaining({ name: 'a', line: 2 })]);
  });

  it('counts an event declared with an empty list as declared', () => {
    const layer = parseCoshConfig(FILE, '[hooks]\nStop = []\n');
    expect(layer.events.get('Stop')).toEqual([]);
  });

  it('reports an event that is not an array of tables', () => {
    expect(codes('[hooks.Stop]\nname = "a"\ncommand = "x"\n')).toEqual(['error:invalid_section@1']);
    expect(codes('[hooks]\nStop = ["x"]\n')).toEqual(['error:invalid_section@2']);
    expect(codes('hooks = 3\n')).toEqual(['error:invalid_section@1']);
  });

  it('turns broken TOML into a diagnostic with line and column', () => {
    const layer = parseCoshConfig(FILE, '[hooks]\nenabled = true\n[[hooks.Stop]\nname = "a"\n');
    expect(layer.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'toml_parse_error', line: 3, column: expect.any(Number) }),
    ]);
    expect(layer.diagnostics[0]!.message).toMatch(/^invalid TOML: /);
    expect(layer.diagnostics[0]!.message).not.toContain('\n');
  });

  it('ignores other top-level tables: they belong to the runtime', () => {
    expect(codes('[model]\nname = "x"\n[ui]\ntheme = "dark"\n')).toEqual([]);
  });

  it('keeps going after the first error in a file', () => {
    const text =
      '[[hooks.Stop]]\nname = "a"\n\n[[hooks.Stop]]\nname = "b"\ncommand = "x"\ntimeout = 0\n\n[[hooks.Nope]]\nname = "c"\n';
    expect(codes(text)).toEqual(['error:command_required@1', 'error:invalid_timeout@7', 'error:invalid_event@9']);
  });
});

describe('cosh config.toml positions', () => {
  it('points at hook headers and key lines, past multi-line strings and sub-tables', () => {
    const text = [
      '[hooks]', // 1
      'enabled = true', // 2
      '[[hooks.Stop]]', // 3
      'name = "a"', // 4
      'command = """', // 5
      '[[hooks.Stop]]', // 6: inside the string
      '"""', // 7
      '  [[ hooks."PreToolUse" ]]', // 8
      '  command = "x"', // 9
      '  timeout = -1', // 10
      '[hooks.PreToolUse.env]', // 11
      'A = 1', // 12
    ].join('\n');
    const layer = parseCoshConfig(FILE, text);
    expect(layer.events.get('Stop')).toEqual([expect.objectContaining({ name: 'a', line: 3 })]);
    expect(layer.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ['invalid_timeout', 10, 3],
      ['invalid_field_type', 11, 1],
      ['nameless_hook', 8, 3],
    ]);
  });
});
