// The one interface every dialect implements (docs/DESIGN.md, "Dialects"). A dialect is a folder
// under src/dialects/<name>/ exporting one `Dialect` object; src/dialects/registry.ts lists them.
// Nothing outside a dialect's folder compares dialect names: use cases ask the registry.
//
// DRAFT (session 4): the redesign owns this file and may change it; keep it types only, so
// importing it loads nothing.
import type { Diagnostic } from '../declarations/diagnostics.js';
import type { OrderedDeclaration } from '../declarations/model.js';
import type { Executor } from '../exec/types.js';
import type { RunRecord } from '../ledger/record.js';
import type { Locations } from '../paths.js';

/** What every source of one dialect gave: declarations of every status, in dispatch order. */
export interface DialectCatalog {
  declarations: OrderedDeclaration[];
  diagnostics: Diagnostic[];
  /** Files that were read. */
  files: string[];
  /** What the dialect's dispatch needs beyond declarations (claude: merged settings env, http gates). */
  context?: unknown;
}

/** One row of `hooks events` (SPEC §6), light: listing events loads no payload types. */
export interface EventRow {
  event: string;
  dialect: string;
  family: string | null;
  sync_eligible: boolean | null;
  deny: string | null;
  payload: unknown;
  patch: unknown;
  /** Dialect-specific columns added to the JSON object (claude: the catalog entry). */
  [extra: string]: unknown;
}

export interface FileValidation {
  diagnostics: Diagnostic[];
  /** The JSON Schema kind that describes this file, when one does. */
  schema?: string;
}

/** One entry of `fire --dry-run`'s plan (SPEC §6, claude.md §6). */
export interface PlanEntry {
  name: string | null;
  source: string;
  mode: string;
  order: number | null;
  matched: boolean;
  fields: { field: string; pattern: unknown; value: unknown; matched: boolean }[];
  /** `active`, or why the declaration never runs (`disabled`, `blocked`, `overridden`, `invalid`, …). */
  status: string;
  why?: string;
  [extra: string]: unknown;
}

export interface DispatchRequest {
  event: string;
  /** The parsed payload (one JSON object), not yet filled by the dialect. */
  payload: Record<string, unknown>;
  /** Every declaration of the event, every status, in dispatch order. */
  declarations: OrderedDeclaration[];
  loc: Locations;
  /** A plain copy of the invoking environment. */
  env: NodeJS.ProcessEnv;
  sessionId: string;
  dispatchId: string;
  /** The depth this dispatch runs at: 1 for a top-level fire. */
  depth: number;
  executor: Executor;
  onRecord: (record: RunRecord) => void | Promise<void>;
  onNotification?: (n: unknown) => void;
  /** The catalog's `context` (see DialectCatalog). */
  context?: unknown;
  /** Dialect-specific selections from the command line (claude: skills, agent). */
  options?: Record<string, unknown>;
}

/** What a dispatch returns; `fire -o json` prints it as is (SPEC §6, claude.md §6). */
export interface DispatchResult {
  verdict: string;
  payload: Record<string, unknown>;
  runs: RunRecord[];
  error: string | null;
  [extra: string]: unknown;
}

export interface Dialect {
  /** `compozy`, `cosh`, `claude`: the value of `--dialect` and of every record's `dialect`. */
  readonly name: string;

  // ---- events (synchronous and light) ----
  eventRows(): readonly EventRow[];
  hasEvent(event: string): boolean;
  /** A usage-error text for an event this dialect knows to be gone (`... was removed; use ...`). */
  removedEventHint?(event: string): string | undefined;
  eventDetail(event: string): Promise<unknown>;
  eventSchemas(event: string): Promise<unknown>;

  // ---- where things are ----
  /** The folder holding `<session_id>/hook-runs.jsonl` for this dialect. */
  sessionsDir(loc: Locations): string;

  // ---- sources ----
  loadCatalog(loc: Locations, env: NodeJS.ProcessEnv): Promise<DialectCatalog>;
  /** `validate FILE`: this dialect's verdict on a file, or undefined when the file is not its kind. */
  validateFile(file: string, text: string, loc: Locations, env: NodeJS.ProcessEnv): Promise<FileValidation | undefined>;

  // ---- fire ----
  /** The session id of a dispatch: `--session`, else the payload's, else a new one. */
  sessionIdFor(payload: Record<string, unknown>, requested: string | undefined): string;
  plan(req: DispatchRequest): Promise<PlanEntry[]>;
  dispatch(req: DispatchRequest): Promise<DispatchResult>;
  /** The exit code of a finished dispatch (SPEC §6). */
  exitCode(result: DispatchResult): number;
}
