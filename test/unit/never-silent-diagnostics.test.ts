// Issue 28, "the mistakes that make a hook never fire get a diagnostic", against the core: one
// diagnostic per problem, at its place, in every dialect that has the mistake.
import { describe, expect, it } from 'vitest';
import { firstShellWord } from '../../src/declarations/command-script.js';
import { parseFrontMatter, splitFrontMatter } from '../../src/declarations/frontmatter.js';
import { parseFrontMatterText } from '../../src/dialects/claude/sources/front-matter.js';
import { parseSettingsText } from '../../src/dialects/claude/sources/settings.js';
import { parseCoshExtension } from '../../src/dialects/cosh/extension.js';

const block = (text: string) => {
  const split = splitFrontMatter(text);
  if (split.kind !== 'block') throw new Error('no front matter block');
  return split.block;
};

const claudeSkill = (fm: string) =>
  parseFrontMatterText(`---\n${fm}---\nbody\n`, '/w/.claude/skills/s/SKILL.md', {
    source: 'claude_skill',
    kind: 'skill',
    fallbackName: 's',
    originOf: (n) => `skill/project/${n}`,
  });

describe('one YAML diagnostic per front matter', () => {
  const REAL =
    'name: plan\ndescription: plans\nargument-hint: [issue] [--plan-doc path]\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: echo\nallowed-tools: Read\n';

  it('an unquoted flow value gives one yaml_parse_error, at the mistake, not one per following line', () => {
    const fm = parseFrontMatter(block(`---\n${REAL}---\nbody\n`), '/a/SKILL.md', 'skill');
    expect(fm.data).toBeUndefined();
    expect(fm.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['yaml_parse_error', 4, 24]]);
  });

  it('the claude front matter reader gives one diagnostic too: it reads the value on a second pass (claude.md §2.1.1)', () => {
    expect(claudeSkill(REAL).diagnostics.map((d) => [d.code, d.line])).toEqual([['claude_frontmatter_requoted', 4]]);
  });

  it('several keys that are lists or maps give one diagnostic', () => {
    const fm = parseFrontMatter(block('---\n? [a]\n: 1\n? [b]\n: 2\nhooks: x\n---\n'), '/a/AGENT.md', 'agent');
    expect(fm.diagnostics.map((d) => [d.code, d.line])).toEqual([['yaml_parse_error', 2]]);
  });
});

describe('front matter that is not a map; matcher diagnostics name their hooks', () => {
  it('a claude front matter is YAML only: a list, or a TOML table header, is frontmatter_not_a_map', () => {
    for (const fm of ['[hooks]\n', '- hooks\n- b\n']) {
      expect(
        claudeSkill(fm).diagnostics.map((d) => [d.code, d.line]),
        fm,
      ).toEqual([['frontmatter_not_a_map', 2]]);
    }
  });

  it('a claude matcher diagnostic names every hook of its group', () => {
    const settings = {
      hooks: {
        Stop: [
          {
            matcher: 'x',
            hooks: [
              { type: 'command', command: 'a' },
              { type: 'command', command: 'b' },
            ],
          },
        ],
        PreToolUse: [{ matcher: '(Bash', hooks: [{ type: 'command', command: 'c' }] }],
      },
    };
    const f = parseSettingsText(JSON.stringify(settings, null, 2), '/w/.claude/settings.json', {
      source: 'claude_project',
      origin: 'project',
      managed: false,
    });
    expect(f.diagnostics.map((d) => [d.code, d.hook])).toEqual([
      ['claude_matcher_ignored', 'project:Stop:1.1, project:Stop:1.2'],
      ['claude_invalid_matcher', 'project:PreToolUse:1.1'],
    ]);
  });

  it('a cosh extension group matcher diagnostic names the hooks of its group', () => {
    const m = parseCoshExtension(
      '/ext/demo/cosh-extension.json',
      JSON.stringify({
        name: 'demo',
        hooks: {
          Stop: [
            {
              matcher: 'x',
              hooks: [
                { type: 'command', name: 'one', command: 'a' },
                { type: 'command', name: 'two', command: 'b' },
              ],
            },
          ],
          PreToolUse: [{ matcher: '(x', hooks: [{ type: 'command', name: 'three', command: 'c' }] }],
        },
      }),
      '/work/space',
    );
    expect(m.diagnostics.map((d) => [d.code, d.hook])).toEqual([
      ['matcher_ignored', 'one, two'],
      ['invalid_matcher_pattern', 'three'],
    ]);
  });
});

describe('an event name as a top-level key', () => {
  const settings = (data: object) =>
    parseSettingsText(JSON.stringify(data, null, 2), '/w/.claude/settings.json', {
      source: 'claude_project',
      origin: 'project',
      managed: false,
    });

  it('in a settings file: one warning naming its hooks, which are kept as stray (never read by Claude Code)', () => {
    const f = settings({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'a' }] }] },
      PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'fmt', timeout: -1 }] }],
      permissions: { allow: [] },
    });
    expect(f.diagnostics.map((d) => [d.severity, d.code, d.line, d.hook, d.message])).toEqual([
      [
        'warning',
        'claude_event_outside_hooks',
        14,
        'project:PostToolUse:1.1',
        '"PostToolUse" is a hook event, not a setting: Claude Code ignores it and its hooks never run; did you mean hooks.PostToolUse?',
      ],
    ]);
    expect(f.handlers.map((h) => [h.name, h.ok, h.stray !== undefined])).toEqual([
      ['project:Stop:1.1', true, false],
      ['project:PostToolUse:1.1', true, true],
    ]);
  });

  it('in a skill front matter, beside hooks', () => {
    const r = claudeSkill('name: s\nPreToolUse:\n  - hooks:\n      - type: command\n        command: x\n');
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([['claude_event_outside_hooks', 3]]);
    expect(r.diagnostics[0]!.message).toContain('did you mean hooks.PreToolUse?');
  });
});

describe('a matcher off by case', () => {
  const settings = (matcher: string, event = 'PreToolUse') =>
    parseSettingsText(
      JSON.stringify({ hooks: { [event]: [{ matcher, hooks: [{ type: 'command', command: 'x' }] }] } }),
      '/w/.claude/settings.json',
      { source: 'claude_project', origin: 'project', managed: false },
    );

  it.each([
    ['bash', 'tool names are case-sensitive; did you mean "Bash"?'],
    ['edit|write', 'tool names are case-sensitive; did you mean "Edit|Write"?'],
    ['Edit|write', 'tool names are case-sensitive; did you mean "Edit|Write"?'],
  ])('%j warns with the corrected matcher, and the hook carries it as a notice', (matcher, message) => {
    const f = settings(matcher);
    expect(f.diagnostics.map((d) => [d.severity, d.code, d.message, d.hook])).toEqual([
      ['warning', 'claude_matcher_case', message, 'project:PreToolUse:1.1'],
    ]);
    expect(f.handlers[0]!.notices?.map((d) => d.code)).toEqual(['claude_matcher_case']);
  });

  it('known names, other names and regular expressions say nothing', () => {
    for (const m of ['Bash', 'Edit|Write', 'mcp__memory', 'Frobnicate', 'bash.*', '^edit$']) {
      expect(settings(m).diagnostics, m).toEqual([]);
    }
  });

  it('a closed value set off by case gets only the case warning', () => {
    expect(settings('Startup', 'SessionStart').diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['claude_matcher_case', 'source values are case-sensitive; did you mean "startup"?'],
    ]);
  });
});

describe('the first word of a shell command, resolved statically', () => {
  const facts = {
    cwd: '/proj',
    home: '/home/u',
    vars: { CLAUDE_PROJECT_DIR: '/proj', CLAUDE_PLUGIN_ROOT: '/plug' },
  };
  it.each([
    ['"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh --flag', '/proj/.claude/hooks/x.sh'],
    ['${CLAUDE_PLUGIN_ROOT}/hooks/run.sh', '/plug/hooks/run.sh'],
    ['~/bin/x.sh', '/home/u/bin/x.sh'],
    ["'./my hook.sh' a", './my hook.sh'],
    ['./x.sh|tee', './x.sh'],
    ['/usr/bin/env node x.js', '/usr/bin/env'],
    ['jq .', 'jq'],
  ])('%j → %j', (command, word) => {
    expect(firstShellWord(command, facts)).toBe(word);
  });
  it.each(['$OTHER/x.sh', '$(pwd)/x.sh', '`pwd`/x.sh', './*.sh', 'FOO=1 ./x.sh', '~other/x.sh', '"unclosed'])(
    '%j cannot be told statically',
    (command) => {
      expect(firstShellWord(command, facts)).toBeUndefined();
    },
  );
});
