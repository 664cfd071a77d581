// Our own real-shaped Claude Code files (test/fixtures/claude/real/README.md) read without a
// single diagnostic, each on its own (validate FILE) and all together as one installation.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { claudeLocations } from '../../src/dialects/claude/locations.js';
import { loadClaudeSources } from '../../src/dialects/claude/sources/load.js';
import { validateClaudeFile } from '../../src/dialects/claude/sources/validate-file.js';
import { repoRoot } from '../support/cli.js';
import { makeClaudeTree, REAL_CLAUDE_FILES, type ClaudeTree } from '../support/claude-tree.js';

const REAL = join(repoRoot, 'test/fixtures/claude/real');
const FILES = REAL_CLAUDE_FILES;

let t: ClaudeTree;
beforeEach(() => {
  t = makeClaudeTree('hookctl-claude-real-');
});

describe('real-shaped files', () => {
  it.each(FILES)('%s validates cleanly', async (rel) => {
    const file = join(REAL, rel);
    const cl = claudeLocations({ workspace: join(REAL, 'project') }, t.env);
    const text = readFileSync(file, 'utf8');
    // lint.json is a hooks file by shape only through the plugin that names it: check it as one.
    const asFile = rel.endsWith('lint.json') ? file.replace('lint.json', 'hooks.json') : file;
    const diagnostics = await validateClaudeFile(asFile, text, cl);
    expect(diagnostics).toEqual([]);
  });

  it('all of them together load with no diagnostic, in dispatch order', async () => {
    cpSync(join(REAL, 'home'), t.home, { recursive: true });
    cpSync(join(REAL, 'project'), t.workspace, { recursive: true });
    cpSync(join(REAL, 'managed'), t.managedDir, { recursive: true });
    cpSync(join(REAL, 'plugins/formatter'), join(t.configDir, 'plugins/cache/team-tools/formatter/1.4.2'), {
      recursive: true,
    });
    const cat = await loadClaudeSources({ workspace: t.workspace }, t.env, {
      pluginDirs: [join(REAL, 'plugins/notify')],
    });
    expect(cat.diagnostics).toEqual([]);
    expect(cat.declarations.map((d) => [d.name, d.status])).toEqual([
      ['managed:PostToolUse:1.1', 'active'],
      ['user:Notification:1.1', 'active'],
      ['user:Stop:1.1', 'active'],
      ['project:PreToolUse:1.1', 'active'],
      ['project:PreToolUse:1.2', 'active'],
      ['project:PreToolUse:2.1', 'active'],
      ['project:PostToolUse:1.1', 'active'],
      ['project:SessionStart:1.1', 'active'],
      ['project:UserPromptSubmit:1.1', 'active'],
      ['local:PostToolUse:1.1', 'active'],
      ['plugin/notify/plugin.json:SessionEnd:1.1', 'active'],
      ['plugin/notify/plugin.json:Notification:1.1', 'active'],
      ['plugin/notify/plugin.json:Stop:1.1', 'active'],
      ['plugin/formatter@team-tools:PostToolUse:1.1', 'active'],
      ['plugin/formatter@team-tools/hooks/lint.json:Stop:1.1', 'active'],
      ['skill/project/release:PreToolUse:1.1', 'active'],
      ['skill/project/release:PostToolUse:1.1', 'active'],
      ['agent/project/reviewer:PreToolUse:1.1', 'active'],
      ['agent/project/reviewer:Stop:1.1', 'active'],
    ]);
  });
});
