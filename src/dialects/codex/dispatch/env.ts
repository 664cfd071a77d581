// A codex hook's process (codex.md §5.2, §5.3): `$SHELL -lc <command>`, its cwd and its
// environment. Pure.
import { DISPATCH_DEPTH_VAR } from '../../../exec/environment.js';
import type { CodexPluginRef } from '../model.js';

/** `$SHELL -lc <command>`; `/bin/sh -lc` when SHELL is unset or empty (Codex's fallback). */
export function codexCommandLine(command: string, env: NodeJS.ProcessEnv): { command: string; args: string[] } {
  const shell = env.SHELL !== undefined && env.SHELL.trim() !== '' ? env.SHELL : '/bin/sh';
  return { command: shell, args: ['-lc', command] };
}

export interface CodexEnvInput {
  invoking: NodeJS.ProcessEnv;
  /** The declaration's env: the plugin variables (§1). */
  declared: Record<string, string>;
  plugin?: CodexPluginRef;
  depth: number;
  /** SessionStart: the hook's own CODEX_ENV_FILE / CLAUDE_ENV_FILE. */
  envFile?: string;
}

/**
 * The invoking environment unchanged (Codex passes its own through), then the plugin variables,
 * then the env files and HOOKCTL_DISPATCH_DEPTH. No other CODEX_* variable is invented [ours].
 */
export function codexHookEnv(input: CodexEnvInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.invoking)) if (value !== undefined) env[name] = value;
  if (input.plugin !== undefined) {
    env.PLUGIN_ROOT = input.plugin.root;
    env.CLAUDE_PLUGIN_ROOT = input.plugin.root;
    env.PLUGIN_DATA = input.plugin.dataDir;
    env.CLAUDE_PLUGIN_DATA = input.plugin.dataDir;
  }
  Object.assign(env, input.declared);
  if (input.envFile !== undefined) {
    env.CODEX_ENV_FILE = input.envFile;
    env.CLAUDE_ENV_FILE = input.envFile;
  }
  env[DISPATCH_DEPTH_VAR] = String(input.depth);
  return env;
}
