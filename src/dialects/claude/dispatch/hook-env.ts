// A claude hook's environment (claude.md §5.3) and the placeholders of its command (§5.2).
import { DISPATCH_DEPTH_VAR } from '../../../exec/environment.js';
import type { ClaudePluginRef } from '../model.js';

export interface HookEnvInput {
  invoking: NodeJS.ProcessEnv;
  /** The settings `env` objects, merged per key (managed > local > project > user). */
  settingsEnv: Record<string, string>;
  workspace: string;
  sessionId: string;
  depth: number;
  plugin?: ClaudePluginRef;
  /** CLAUDE_ENV_FILE, on the events that give one. */
  envFile?: string;
}

/**
 * The invoking environment minus every OTEL_* variable (hookctl's own exporter settings are no
 * hook's business), then the settings env, then the variables Claude Code sets for every hook.
 */
export function claudeHookEnv(input: HookEnvInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.invoking)) {
    if (value !== undefined && !name.startsWith('OTEL_')) env[name] = value;
  }
  Object.assign(env, input.settingsEnv);
  env.CLAUDE_PROJECT_DIR = input.workspace;
  if (input.plugin !== undefined) {
    env.CLAUDE_PLUGIN_ROOT = input.plugin.root;
    env.CLAUDE_PLUGIN_DATA = input.plugin.dataDir;
  }
  if (input.envFile !== undefined) env.CLAUDE_ENV_FILE = input.envFile;
  env.CLAUDE_CODE_SESSION_ID = input.sessionId;
  env[DISPATCH_DEPTH_VAR] = String(input.depth);
  return env;
}

/** `${CLAUDE_PROJECT_DIR}`, `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}`, replaced as text. */
export function substitutePlaceholders(text: string, workspace: string, plugin: ClaudePluginRef | undefined): string {
  let out = text.split('${CLAUDE_PROJECT_DIR}').join(workspace);
  if (plugin !== undefined) {
    out = out.split('${CLAUDE_PLUGIN_ROOT}').join(plugin.root).split('${CLAUDE_PLUGIN_DATA}').join(plugin.dataDir);
  }
  return out;
}
