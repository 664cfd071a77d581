// The Claude Code part of fixtures/demo loads cleanly: every source, in dispatch order.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadClaudeSources } from '../../src/dialects/claude/sources/load.js';
import { demoDir } from '../support/cli.js';

describe('fixtures/demo/claude', () => {
  it('loads with no diagnostic', async () => {
    const c = join(demoDir, 'claude');
    const cat = await loadClaudeSources(
      { workspace: join(c, 'workspace') },
      {
        HOME: join(c, 'home'),
        CLAUDE_CONFIG_DIR: join(c, 'home/.claude'),
        HOOKCTL_CLAUDE_MANAGED_DIR: join(c, 'managed'),
        HOOKCTL_STATE_DIR: '/nonexistent-state',
      },
    );
    expect(cat.diagnostics).toEqual([]);
    expect(cat.declarations.map((d) => [d.name, d.event, d.status])).toEqual([
      ['managed:SessionEnd:1.1', 'SessionEnd', 'active'],
      ['user:Notification:1.1', 'Notification', 'active'],
      ['user:Stop:1.1', 'Stop', 'active'],
      ['project:PreToolUse:1.1', 'PreToolUse', 'active'],
      ['project:PreToolUse:1.2', 'PreToolUse', 'active'],
      ['project:PreToolUse:1.3', 'PreToolUse', 'active'],
      ['project:PreToolUse:2.1', 'PreToolUse', 'active'],
      ['project:UserPromptSubmit:1.1', 'UserPromptSubmit', 'active'],
      ['project:SessionStart:1.1', 'SessionStart', 'active'],
      ['plugin/changelog-guard@demo-market:PostToolUse:1.1', 'PostToolUse', 'active'],
      ['skill/project/release-notes:PostToolUse:1.1', 'PostToolUse', 'active'],
      ['agent/project/reviewer:Stop:1.1', 'SubagentStop', 'active'],
    ]);
  });
});
