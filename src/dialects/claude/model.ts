// What a claude declaration carries beyond the shared Declaration (its `extra`), and what a claude
// dispatch needs from the loaded sources (the catalog's `context`). The loaders (claude.md §1–§2)
// produce these; the matcher and dispatch (claude.md §4–§6) read them.

export type ClaudeHandlerType = 'command' | 'http' | 'mcp_tool' | 'prompt' | 'agent';

export type ClaudeSource =
  | 'claude_managed'
  | 'claude_user'
  | 'claude_project'
  | 'claude_local'
  | 'claude_plugin'
  | 'claude_skill'
  | 'claude_command'
  | 'claude_agent';

export interface ClaudePluginRef {
  /** `<name>@<marketplace>`, or a --plugin-dir plugin's manifest name. */
  id: string;
  root: string;
  /** `$CLAUDE_CONFIG_DIR/plugins/data/<id with [^A-Za-z0-9_-] replaced by ->`. */
  dataDir: string;
  /** managed enabledPlugins sets it true. */
  forceEnabled: boolean;
}

/** Declaration.extra of every claude declaration. */
export interface ClaudeHandlerInfo {
  /** The §2.2 origin: `project`, `managed.d/<file>`, `plugin/<id>`, `skill/<scope>/<skill>`, … */
  origin: string;
  /** The handler object as written. */
  handler: Record<string, unknown>;
  handler_type: ClaudeHandlerType;
  /** The group's matcher as written; null when absent. */
  group_matcher: string | null;
  /** The handler's `if` rule; null when absent. */
  if: string | null;
  once: boolean;
  async: boolean;
  async_rewake: boolean;
  /** The handler's own timeout in seconds, as written; null when absent. */
  timeout_s: number | null;
  plugin?: ClaudePluginRef;
  skill?: string;
  agent?: string;
  /** false for §5.8 handlers (prompt, agent, mcp_tool, powershell, exec-form user_config). */
  runnable: boolean;
  /** Why a handler is not runnable (recorded as the skipped run's `why`). */
  unrunnable_why?: string;
  /** The command, url, `server/tool` or first prompt line, at most 80 characters. */
  label: string;
  /** The mods that may intercept the hook's event (claude.md §1.1). */
  intercepted_by?: string[];
}

/** DialectCatalog.context of the claude dialect. */
export interface ClaudeContext {
  /** The settings `env` objects merged per key, managed > local > project > user. */
  settingsEnv: Record<string, string>;
  /** The union of every file's allowedHttpHookUrls; undefined when no file sets it. */
  allowedHttpHookUrls?: string[];
  /** The union of every file's httpHookAllowedEnvVars; undefined when no file sets it. */
  httpHookAllowedEnvVars?: string[];
  /** The largest `timeout` among SessionEnd hooks of settings files, in seconds (claude.md §5.7). */
  sessionEndMaxTimeoutS?: number;
  /** $CLAUDE_CONFIG_DIR, absolute. */
  configDir: string;
  /** The loaded mods (claude.md §1.1): plugin, modules, registrations, events they may intercept. */
  mods?: { plugin: string; modules: string[]; registers: string[]; events: string[] }[];
}
