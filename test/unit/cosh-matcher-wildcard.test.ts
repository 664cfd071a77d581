// cosh matchers as cosh-core's hook planner reads them (inherited from gemini-cli): trimmed, and
// `*` is the match-all wildcard rather than an invalid regular expression.
import { describe, expect, it } from 'vitest';
import { parseCoshConfig } from '../../src/dialects/cosh/config.js';
import { parseCoshExtension } from '../../src/dialects/cosh/extension.js';

const hookWith = (event: string, matcher: string) =>
  `[[hooks.${event}]]\nname = "h"\ncommand = "true"\nmatcher = ${JSON.stringify(matcher)}\n`;

describe('cosh matcher "*" and surrounding white space', () => {
  it('reads "*" as every tool: no error, no matcher kept', () => {
    const layer = parseCoshConfig('/c.toml', hookWith('PreToolUse', '*'));
    expect(layer.diagnostics).toEqual([]);
    expect(layer.events.get('PreToolUse')).toEqual([expect.not.objectContaining({ matcher: expect.anything() })]);
  });

  it('does not warn about "*" on an event without tools, as for an empty matcher', () => {
    expect(parseCoshConfig('/c.toml', hookWith('SessionStart', ' * ')).diagnostics).toEqual([]);
    expect(parseCoshConfig('/c.toml', hookWith('SessionStart', 'shell')).diagnostics).toEqual([
      expect.objectContaining({ code: 'matcher_ignored' }),
    ]);
  });

  it('trims a matcher before using it', () => {
    const layer = parseCoshConfig('/c.toml', hookWith('PreToolUse', ' ^shell$ '));
    expect(layer.events.get('PreToolUse')![0]!.matcher).toBe('^shell$');
  });

  it('still rejects a pattern that is not a regular expression', () => {
    expect(parseCoshConfig('/c.toml', hookWith('PreToolUse', '*shell')).diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'invalid_matcher_pattern' }),
    ]);
  });

  it('applies to an extension group matcher too', () => {
    const manifest = parseCoshExtension(
      '/x/cosh-extension.json',
      JSON.stringify({
        name: 'star',
        hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', name: 'h', command: 'true' }] }] },
      }),
      '/w',
    );
    expect(manifest.diagnostics).toEqual([]);
    expect(manifest.hooks).toHaveLength(1);
    expect(manifest.hooks[0]!.matcher).toBeUndefined();
  });
});
