import type { Diagnostic } from './diagnostics.js';

// The normalised declaration every dialect shares, and where it came from.
// Each dialect's loaders (src/dialects/<name>/) turn their files into Declarations; everything
// downstream (list, info, validate, fire) works on this type only. Dialect, source and skill
// source are open strings here: each dialect's own unions live in its folder
// (src/dialects/compozy/model.ts, src/dialects/cosh/model.ts, src/dialects/claude/model.ts).

/** A dialect's name: `compozy`, `cosh`, … (the value of `--dialect` and of every record's `dialect`). */
export type Dialect = string;

/** Where a declaration was found, in its dialect's words (`config`, `cosh_extension`, `claude_user`, …). */
export type Source = string;

/** compozy skills: which skill folder (`bundled`, `user`, …). Other dialects leave it unset. */
export type SkillSource = string;

export type Mode = 'sync' | 'async';

/**
 * active: dispatched. The others only show in `hooks list --all`, with `why`. `invalid`: a
 * declaration with errors, kept so that list --all, info and fire --dry-run can show it with its
 * diagnostics (SPEC §7.2); it never runs.
 */
export type DeclarationStatus = 'active' | 'disabled' | 'skipped' | 'blocked' | 'overridden' | 'invalid';

/**
 * What runs the hook, in its dialect's words: compozy `subprocess`, `native`, `http`, `agent`,
 * `wasm`; claude the handler type (`command`, `http`, `mcp_tool`, `prompt`, `agent`).
 */
export type ExecutorKind = string;

export interface Location {
  /** Absolute path of the file the declaration lives in. */
  file: string;
  /** 1-based line where the declaration starts (its [[...]] header, list item or JSON object). */
  line: number;
  column?: number;
}

/** A compozy matcher value: a wildcard pattern, or a boolean for tool_read_only. */
export type MatcherValue = string | boolean;

export interface Declaration {
  dialect: Dialect;
  /** null only for a nameless cosh hook (status `skipped`). */
  name: string | null;
  event: string;
  source: Source;
  skill_source?: SkillSource;
  mode: Mode;
  required: boolean;
  /** null for dialects without priorities (claude). */
  priority: number | null;
  /** 0 = executor default (5 s). */
  timeout_ms: number;
  enabled: boolean;
  metadata: Record<string, string>;
  /**
   * compozy: flat map of set matcher fields; autonomy fields are kept under their leaf name
   * (they live in one namespace with the family fields, so a leaf name is unambiguous).
   * cosh: `{ tool_name: <regex> }` when the hook's matcher is non-empty.
   */
  matcher: Record<string, MatcherValue>;
  executor_kind: ExecutorKind;
  /** Command after template expansion and (for extensions) root resolution. */
  command: string;
  args: string[];
  env: Record<string, string>;
  /** name -> ref (`env:NAME` or `vault:...`). Resolved only at fire time. */
  secret_env: Record<string, string>;
  /** Working directory of the hook process. */
  cwd: string;
  location: Location;
  status: DeclarationStatus;
  why?: string;
  /** compozy extension name, cosh extension name. */
  extension?: string;
  /** cosh only: the hook's description. */
  description?: string;
  /** Data only the declaring dialect reads (claude: ClaudeHandlerInfo, src/dialects/claude/model.ts). */
  extra?: Record<string, unknown>;
  /** status `invalid`: the errors that make it so (`why` is the first one's message). */
  diagnostics?: Diagnostic[];
}

/** A declaration in dispatch order: `order` is its 1-based position within its event. */
export interface OrderedDeclaration extends Declaration {
  order: number | null;
}
