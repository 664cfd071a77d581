// What a codex declaration carries beyond the shared Declaration (its `extra`), and what a codex
// dispatch needs from the loaded sources (the catalog's `context`). The loaders (codex.md §1–§2)
// produce these; the matcher, dispatch and edits (codex.md §4–§7) read them.
import type { CodexEventName } from './catalog-types.js';

export type { CodexEventName };

export type CodexHandlerType = 'command' | 'mcp_tool' | 'prompt' | 'agent';

export type CodexSource = 'codex_managed' | 'codex_system' | 'codex_user' | 'codex_project' | 'codex_plugin';

/** codex.md §2.6: `managed` for codex_managed and codex_system hooks, else by hash. */
export type CodexTrust = 'managed' | 'trusted' | 'modified' | 'untrusted';

/** The kind of file a declaration came from. */
export type CodexFileKind = 'hooks_json' | 'config_toml' | 'requirements_toml' | 'plugin_inline';

export interface CodexPluginRef {
  /** `<name>@<marketplace>`, or a --plugin-dir plugin's manifest name. */
  id: string;
  root: string;
  /** PLUGIN_DATA (codex.md §1); hookctl never creates it. */
  dataDir: string;
}

/** Declaration.extra of every codex declaration. */
export interface CodexHandlerInfo {
  /** The §2.4 origin: `user/hooks.json`, `project/sub/.codex/config.toml`, `plugin/<id>/<path>`, … */
  origin: string;
  file_kind: CodexFileKind;
  /** The handler object (table) as written. */
  handler: Record<string, unknown>;
  handler_type: CodexHandlerType;
  /** The group's matcher as written; null when absent. */
  group_matcher: string | null;
  /** 0-based positions as Codex counts them (every group and handler, skipped ones included). */
  group_index: number;
  handler_index: number;
  /** Codex's own key (§2.5): `<key source>:<event label>:<group>:<handler>`. */
  key: string;
  /** The identity JSON that is hashed (§2.6) and its hash. */
  hash_input: string;
  current_hash: string;
  /** From `[hooks.state."<key>"]` of the user config.toml only; null when none. */
  trusted_hash: string | null;
  trust: CodexTrust;
  /** Effective seconds (§2.1: default per event, 0 → 1, clamped on SessionEnd/Interrupt). */
  timeout_s: number;
  /** Effective: false on SessionEnd whatever is written (§5.8). */
  async: boolean;
  status_message: string | null;
  /** additionalContextLimit as written; null when absent. */
  context_limit: number | null;
  plugin?: CodexPluginRef;
  /** false for mcp_tool (needs Codex's MCP connections) and handlers Codex skips. */
  runnable: boolean;
  unrunnable_why?: string;
  /** The command, or `server/tool`, at most 80 characters. */
  label: string;
}

/** DialectCatalog.context of the codex dialect. */
export interface CodexContext {
  codexHome: string;
  systemDir: string;
  workspace: string;
  /** The nearest folder at or above the workspace holding `.git`; the workspace when none. */
  projectRoot: string;
  /** `$CODEX_HOME/config.toml`: where trust and enable/disable state is written. */
  userConfig: string;
  stateDir: string;
  pluginDirs: string[];
}
