// Shared by the claude end-to-end tests: a sandbox per test (Claude Code's config dir, managed
// dir and hookctl's state dir inside it, a workspace whose .claude/settings.json the test writes,
// a bin/ for hook scripts) and the built CLI run in it.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClaudeDispatchResult } from '../../src/dialects/claude/dispatch/dispatch.js';
import { binPath, runCli, type CliResult } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

if (!existsSync(binPath)) throw new Error('the e2e tests run the built CLI: run `npm run build` first');

export interface Sandbox {
  root: string;
  workspace: string;
  out: string;
  env: Record<string, string>;
  /** Writes an executable /bin/sh script and returns its path. */
  script(name: string, body: string): string;
  settings(hooks: Record<string, unknown>, extra?: Record<string, unknown>): void;
  fire(event: string, payload: unknown, ...flags: string[]): Promise<CliResult & { json: FireJson }>;
  cli(args: string[], input?: string): Promise<CliResult>;
  records(session: string): Record<string, unknown>[];
}

/** Only the declared keys: `Omit` over DispatchResult's index signature would erase them all. */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };

/** The fire document (claude.md §6), records read as plain objects. */
export type FireJson = Pick<ClaudeDispatchResult, Exclude<KnownKeys<ClaudeDispatchResult>, 'runs'>> & {
  runs: Record<string, unknown>[];
};

export function sandbox(): Sandbox {
  const root = tempDir('hookctl-e2e-claude-'); // removed after the test file (test/support/cleanup.ts)
  const workspace = join(root, 'workspace');
  const out = join(root, 'out');
  const bin = join(root, 'bin');
  for (const d of [join(workspace, '.claude'), out, bin, join(root, 'home', '.claude'), join(root, 'managed')])
    mkdirSync(d, { recursive: true });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: join(root, 'home'),
    LANG: 'C.UTF-8',
    TMPDIR: process.env.TMPDIR ?? tmpdir(),
    COMPOZY_HOME: join(root, 'home', '.compozy'),
    COSH_HOME: join(root, 'home', '.copilot-shell'),
    COSH_SYSTEM_ROOT: join(root, 'system'),
    CLAUDE_CONFIG_DIR: join(root, 'home', '.claude'),
    HOOKCTL_CLAUDE_MANAGED_DIR: join(root, 'managed'),
    HOOKCTL_STATE_DIR: join(root, 'state'),
  };
  mkdirSync(env.COSH_SYSTEM_ROOT!, { recursive: true });
  const cli = (args: string[], input?: string) =>
    runCli([...args, '--workspace', workspace], { env, ...(input !== undefined ? { input } : {}) });
  return {
    root,
    workspace,
    out,
    env,
    script(name, body) {
      const file = join(bin, name);
      writeFileSync(file, `#!/bin/sh\n${body}\n`);
      chmodSync(file, 0o755);
      return file;
    },
    settings(hooks, extra = {}) {
      writeFileSync(join(workspace, '.claude', 'settings.json'), JSON.stringify({ ...extra, hooks }, null, 2) + '\n');
    },
    cli,
    async fire(event, payload, ...flags) {
      const r = await cli(
        ['hooks', 'fire', event, '--dialect', 'claude', '-o', 'json', ...flags],
        JSON.stringify(payload),
      );
      let json: FireJson;
      try {
        json = JSON.parse(r.stdout) as FireJson;
      } catch {
        throw new Error(`fire ${event} printed no JSON (exit ${r.code}): ${r.stdout}${r.stderr}`);
      }
      return { ...r, json };
    },
    records(session) {
      const file = join(root, 'state', 'claude', 'sessions', session, 'hook-runs.jsonl');
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    },
  };
}

export const cmd = (command: string, more: Record<string, unknown> = {}) => ({ type: 'command', command, ...more });
export const group = (hooks: unknown[], matcher?: string) => ({ ...(matcher !== undefined ? { matcher } : {}), hooks });
export const decision = (event: string, d: string, reason = `${d} reason`) =>
  `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: event, permissionDecision: d, permissionDecisionReason: reason } })}'`;
export const bash = (command: string) => ({ session_id: 's1', tool_name: 'Bash', tool_input: { command } });
