// Builds a throw-away Claude Code layout for the claude dialect's tests: a HOME with
// CLAUDE_CONFIG_DIR, a managed dir, a state dir and a workspace, all under one mkdtemp folder.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from './temp.js';

export interface ClaudeTree {
  root: string;
  home: string;
  configDir: string;
  managedDir: string;
  stateDir: string;
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** Writes a file under root (objects become 2-space JSON); returns its absolute path. */
  write(path: string, content: string | object): string;
}

export function makeClaudeTree(prefix = 'hookctl-claude-'): ClaudeTree {
  const root = tempDir(prefix); // removed after the test file (test/support/cleanup.ts)
  const home = join(root, 'home');
  const tree: ClaudeTree = {
    root,
    home,
    configDir: join(home, '.claude'),
    managedDir: join(root, 'managed'),
    stateDir: join(root, 'state'),
    workspace: join(root, 'ws'),
    env: {
      HOME: home,
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      HOOKCTL_CLAUDE_MANAGED_DIR: join(root, 'managed'),
      HOOKCTL_STATE_DIR: join(root, 'state'),
    },
    write(path, content) {
      const file = join(root, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n');
      return file;
    },
  };
  mkdirSync(tree.workspace, { recursive: true });
  return tree;
}

/** The environment of a CLI run on the tree: isolatedEnv's PATH and homes, Claude Code's in the tree. */
export function claudeCliEnv(t: ClaudeTree, isolated: Record<string, string>): Record<string, string> {
  return {
    ...isolated,
    CLAUDE_CONFIG_DIR: t.configDir,
    HOOKCTL_CLAUDE_MANAGED_DIR: t.managedDir,
    HOOKCTL_STATE_DIR: t.stateDir,
  };
}

/** Our real-shaped example files (test/fixtures/claude/real/README.md), relative to that folder. */
export const REAL_CLAUDE_FILES = [
  'home/.claude/settings.json',
  'project/.claude/settings.json',
  'project/.claude/settings.local.json',
  'project/.claude/skills/release/SKILL.md',
  'project/.claude/agents/reviewer.md',
  'managed/managed-settings.json',
  'plugins/formatter/.claude-plugin/plugin.json',
  'plugins/formatter/hooks/hooks.json',
  'plugins/formatter/hooks/lint.json',
  'plugins/notify/.claude-plugin/plugin.json',
  'plugins/notify/hooks/hooks.json',
];

/** `{hooks: {<event>: [{matcher?, hooks: [handler]}]}}` for one handler. */
export function oneHook(event: string, handler: object, matcher?: string): object {
  return { hooks: { [event]: [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [handler] }] } };
}
