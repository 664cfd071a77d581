// The trust hash (codex.md §2.6), against the spec's worked example and a hash a real Codex wrote.
import { describe, expect, it } from 'vitest';
import { codexEvent } from '../../src/dialects/codex/catalog.js';
import { canonicalJson, codexHookHash, TomlFloat } from '../../src/dialects/codex/rules/hash.js';
import { effectiveTimeout } from '../../src/dialects/codex/rules/timeout.js';

const ev = (name: string) => codexEvent(name)!;

describe('codex trust hash (codex.md §2.6)', () => {
  it('gives the worked example of §2.6 byte for byte', () => {
    const got = codexHookHash(ev('PreToolUse'), '^Bash$', {
      type: 'command',
      command: '~/bin/guard.sh',
      timeout: 10,
      async: false,
      statusMessage: 'checking',
    });
    expect(got.hash_input).toBe(
      '{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"~/bin/guard.sh","statusMessage":"checking","timeout":10,"type":"command"}],"matcher":"^Bash$"}',
    );
    expect(got.current_hash).toBe('sha256:96bbba10acb318dc0ae335debebc2e6cbb9e5e71ae59e1036eb72b0a384797c5');
  });

  it('matches a hash a real Codex wrote (non-ASCII statusMessage, unescaped)', () => {
    // Published in a third-party write-up of Codex's hook trust (codex-sources.md C6).
    const got = codexHookHash(ev('PreToolUse'), '^Bash$', {
      type: 'command',
      command: 'bash "$HOME/.codex/hooks/block-dangerous-commands.sh"',
      timeout: 10,
      async: false,
      statusMessage: 'コマンド安全性チェック中...',
    });
    expect(got.current_hash).toBe('sha256:926d8278e318187e63816360f984fd354cad9dec305d9e7f4154a02377b3f39d');
  });

  it('drops the matcher on events without a matcher field, keeps "" and "*" elsewhere', () => {
    const h = { type: 'command' as const, command: 'x', timeout: 600 };
    expect(codexHookHash(ev('Stop'), 'anything', h).hash_input).not.toContain('matcher');
    expect(codexHookHash(ev('PreToolUse'), '', h).hash_input).toContain('"matcher":""');
    expect(codexHookHash(ev('PreToolUse'), '*', h).hash_input).toContain('"matcher":"*"');
    expect(codexHookHash(ev('PreToolUse'), null, h).hash_input).not.toContain('matcher');
  });

  it('hashes additionalContextLimit only where honoured and not 2500; a null statusMessage is unset', () => {
    const h = (limit: number) => ({
      type: 'command' as const,
      command: 'x',
      timeout: 600,
      additionalContextLimit: limit,
      statusMessage: null,
    });
    expect(codexHookHash(ev('PreToolUse'), null, h(100)).hash_input).toContain('"additionalContextLimit":100');
    expect(codexHookHash(ev('PreToolUse'), null, h(2500)).hash_input).not.toContain('additionalContextLimit');
    expect(codexHookHash(ev('Stop'), null, h(100)).hash_input).not.toContain('additionalContextLimit');
    expect(codexHookHash(ev('Stop'), null, h(100)).hash_input).not.toContain('statusMessage');
  });

  it('uses the effective timeout: a clamped SessionEnd value hashes as 3, async as written', () => {
    const t = effectiveTimeout(ev('SessionEnd'), 5);
    expect(t).toEqual({ seconds: 3, zero: false, clamped: true });
    const got = codexHookHash(ev('SessionEnd'), null, {
      type: 'command',
      command: 'x',
      timeout: t.seconds,
      async: true,
    });
    expect(got.hash_input).toBe(
      '{"event_name":"session_end","hooks":[{"async":true,"command":"x","timeout":3,"type":"command"}]}',
    );
    expect(effectiveTimeout(ev('PreToolUse'), undefined).seconds).toBe(600);
    expect(effectiveTimeout(ev('Interrupt'), undefined).seconds).toBe(1);
    expect(effectiveTimeout(ev('PreToolUse'), 0)).toEqual({ seconds: 1, zero: true, clamped: false });
  });

  it('an mcp_tool identity: server, tool, input ({} when absent), timeout; TOML floats keep their fraction', () => {
    const got = codexHookHash(ev('PreToolUse'), 'Bash', {
      type: 'mcp_tool',
      server: 's',
      tool: 't',
      timeout: 600,
      input: { n: 2000n, f: new TomlFloat(1), z: { b: true, a: 'é' } },
    });
    expect(got.hash_input).toBe(
      '{"event_name":"pre_tool_use","hooks":[{"input":{"f":1.0,"n":2000,"z":{"a":"é","b":true}},"server":"s","timeout":600,"tool":"t","type":"mcp_tool"}],"matcher":"Bash"}',
    );
    expect(
      codexHookHash(ev('Stop'), null, { type: 'mcp_tool', server: 's', tool: 't', timeout: 1 }).hash_input,
    ).toContain('"input":{}');
  });

  it('sorts keys by code point like serde_json', () => {
    expect(canonicalJson({ b: 1, B: 2, a: [{ y: null, x: 'z' }] })).toBe('{"B":2,"a":[{"x":"z","y":null}],"b":1}');
  });
});
