// Claude Code releases (claude.md §9, issue 27): choosing one, its catalog, its rules.
import { afterEach, describe, expect, it } from 'vitest';
import { claudeEvent, claudeEvents } from '../../src/dialects/claude/catalog.js';
import { claudeReleaseChanges } from '../../src/dialects/claude/release-changes.js';
import {
  compareVersions,
  configureClaudeRelease,
  parseClaudeRelease,
  ruleHolds,
  useClaudeRelease,
} from '../../src/dialects/claude/releases.js';
import { parseSettingsText } from '../../src/dialects/claude/sources/settings.js';

afterEach(() => useClaudeRelease(undefined));

const codes = (hooks: object) =>
  parseSettingsText(JSON.stringify({ hooks }), '/x/.claude/settings.json', {
    source: 'claude_project',
    origin: 'project',
    managed: false,
  }).diagnostics.map((d) => [d.severity, d.code, d.message]);

describe('choosing a release', () => {
  it('2.1.N with or without v, numerically, the nearest versions entry at or below it; the newest by default', () => {
    expect(compareVersions('2.1.99', '2.1.100')).toBeLessThan(0);
    expect(parseClaudeRelease(undefined)).toEqual({ version: '2.1.295', entry: '2.1.295', newest: true });
    expect(parseClaudeRelease('')).toMatchObject({ version: '2.1.295' });
    expect(parseClaudeRelease('v2.1.240')).toEqual({ version: '2.1.240', entry: '2.1.240', newest: false });
    expect(parseClaudeRelease('2.1.250')).toEqual({ version: '2.1.250', entry: '2.1.248', newest: false });
    expect(parseClaudeRelease('2.1.0').entry).toBe('2.1.0');
    for (const bad of ['2.1.296', '2.0.9', '3.0.0', 'latest', '2.1']) {
      expect(() => parseClaudeRelease(bad)).toThrow(
        `unknown Claude Code version "${bad}"; hookctl knows 2.1.0 to 2.1.295 (newest)`,
      );
    }
    expect(configureClaudeRelease({ HOOKCTL_CLAUDE_VERSION: '2.1.240' }).version).toBe('2.1.240');
  });
});

describe('the catalog of a release', () => {
  it('33 events at the newest, 31 at 2.1.240, without what came later', () => {
    expect(claudeEvents()).toHaveLength(33);
    useClaudeRelease('2.1.240');
    expect(claudeEvents()).toHaveLength(31);
    expect(claudeEvent('PreModelSwitch')).toBeUndefined();
    expect(claudeEvent('SessionStart')!.payload_fields).not.toContain('context_tokens');
    expect(claudeEvent('SessionStart')!.matcher_values).toContain('fork');
    useClaudeRelease('2.1.200');
    expect(claudeEvent('SessionStart')!.matcher_values).not.toContain('fork');
    expect(claudeEvent('SessionEnd')!.matcher_values).toContain('bypass_permissions_disabled');
    useClaudeRelease('2.1.0');
    expect(claudeEvent('Setup')).toBeUndefined();
  });

  it('declarations: a later event, handler type or field names the release that added it', () => {
    useClaudeRelease('2.1.240');
    expect(codes({ PreModelSwitch: [] })).toEqual([
      ['error', 'claude_unknown_event', 'unknown hook event "PreModelSwitch" (added in Claude Code 2.1.251)'],
    ]);
    useClaudeRelease('2.1.60');
    expect(codes({ Stop: [{ hooks: [{ type: 'http', url: 'https://x' }] }] })).toEqual([
      [
        'error',
        'claude_handler_type_not_in_version',
        '"http" hooks are new in Claude Code 2.1.63; Claude Code 2.1.60 does not run this hook',
      ],
    ]);
    useClaudeRelease('2.1.100');
    expect(codes({ Stop: [{ hooks: [{ type: 'command', command: 'x', args: [] }] }] })).toEqual([
      [
        'warning',
        'claude_field_not_in_version',
        '"args" is new in Claude Code 2.1.139; Claude Code 2.1.100 ignores it',
      ],
    ]);
    useClaudeRelease(undefined);
    expect(codes({ PreModelSwitch: [], Stop: [{ hooks: [{ type: 'command', command: 'x', args: [] }] }] })).toEqual([]);
  });

  it('rules hold from their release on', () => {
    expect(ruleHolds('agent_name_colon_refused')).toBe(true);
    useClaudeRelease('2.1.217');
    expect(ruleHolds('agent_name_colon_refused')).toBe(false);
  });
});

describe('hooks events --changes', () => {
  it('lists per release what it added and removed', () => {
    const list = claudeReleaseChanges();
    expect(list[0]).toMatchObject({ runtime: 'Claude Code', version: '2.1.0', previous: null });
    const at = (v: string) => list.find((x) => x.version === v)!;
    expect(at('2.1.251').changes).toEqual(
      expect.arrayContaining([
        { kind: 'event_added', name: 'PreModelSwitch', in: [] },
        { kind: 'event_added', name: 'PostModelSwitch', in: [] },
        { kind: 'field_added', name: 'context_tokens', in: ['SessionStart'] },
      ]),
    );
    expect(at('2.1.63').changes).toContainEqual({ kind: 'handler_type_added', name: 'http', in: [] });
    expect(at('2.1.139').changes).toContainEqual({ kind: 'handler_field_added', name: 'args', in: ['command'] });
    expect(at('2.1.214').changes).toContainEqual({ kind: 'matcher_value_added', name: 'fork', in: ['SessionStart'] });
    expect(at('2.1.234').changes).toContainEqual({
      kind: 'matcher_value_removed',
      name: 'bypass_permissions_disabled',
      in: ['SessionEnd'],
    });
    expect(at('2.1.218').changes).toContainEqual(
      expect.objectContaining({ kind: 'rule', name: 'agent_name_colon_refused' }),
    );
    expect(list.filter((v) => v.selected).map((v) => v.version)).toEqual(['2.1.295']);
  });
});

describe('if file patterns by release (2.1.214, §4.2)', () => {
  it('src/** is anchored at cwd from 2.1.214; below, it matches a src folder at any depth', async () => {
    const { evaluatePathPattern } = await import('../../src/dialects/claude/rules/path-rule.js');
    const cwd = '/work/proj';
    const at = (pattern: string, file: string) => evaluatePathPattern(pattern, file, cwd, '/home/u').verdict;
    expect(at('src/**', '/work/proj/src/a.ts')).toBe('match');
    expect(at('src/**', '/work/proj/lib/src/a.ts')).toBe('no_match');
    useClaudeRelease('2.1.213');
    expect(at('src/**', '/work/proj/lib/src/a.ts')).toBe('match');
    expect(at('src/**', '/work/proj/src/a.ts')).toBe('match');
    expect(at('lib/src/**', '/work/proj/x/lib/src/a.ts')).toBe('no_match'); // other patterns with a / stay anchored
  });
});
