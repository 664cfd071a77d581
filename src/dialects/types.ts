// The one interface every dialect implements (docs/DESIGN.md, "Dialects"). A dialect is a folder
// under src/dialects/<name>/ exporting one `Dialect` object; src/dialects/registry.ts lists them.
// Nothing outside a dialect's folder compares dialect names: use cases (src/app/) ask the registry.
//
// Types only, so importing this file loads nothing. A Dialect object itself must stay light too:
// its index module may load its event catalog (list, events and fire need it at once), and
// imports everything else — loaders, rules, payload types, dispatch — inside the member that
// needs it, so registering a dialect costs a command nothing it does not use.
import type { FireReport, Heading, ReportTable } from '../report.js';
import type { Diagnostic } from '../declarations/diagnostics.js';
import type { SchemaLayout } from '../validate/schema-check.js';
import type { OrderedDeclaration } from '../declarations/model.js';
import type { Locator } from '../declarations/source-file.js';
import type { EventSchemas } from '../events/schema.js';
import type { Executor } from '../exec/types.js';
import type { RunRecord } from '../ledger/record.js';
import type { RunObserver } from '../telemetry/observer.js';
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

export interface PayloadFieldRow {
  name: string;
  type: string;
  enum?: string[];
  /** cosh: a base field every event carries. */
  base?: boolean;
}

export interface PatchFieldRow {
  name: string;
  type: string;
  /** The engine acts on the field. */
  applied: boolean;
  /** Where an applied field lands when not on the payload field of the same name. */
  applied_to?: string;
}

/** `hooks events EVENT`: the row, plus what a hook receives and may answer. */
export interface EventDetail extends EventRow {
  summary: string;
  /** The check that can reject an answer (compozy guards); null when none. */
  guard: string | null;
  /** The answer key that denies; null when none. */
  deny_field: string | null;
  payload_fields: PayloadFieldRow[];
  patch_fields: PatchFieldRow[];
  /** The answer is decoded but never applied. */
  observation_only: boolean;
  /** The payload fields a declaration's matcher may test. */
  matcher_fields: readonly string[];
  /** Known values of the matcher field (claude: the tool names of PreToolUse); absent: none known. */
  matcher_values?: readonly string[] | null;
  /** `matcher_values` is the whole set (else other values match too). */
  matcher_values_closed?: boolean;
  /**
   * A dialect whose hooks answer with JSON output rather than a typed patch (claude): the
   * honoured output fields, each with what it does where known. The view shows them under an
   * Output header in place of the Patch table.
   */
  output?: { fields: { name: string; note: string | null }[] };
}

export interface FileValidation {
  diagnostics: Diagnostic[];
  /**
   * The file's name and place make it this dialect's kind alone (claude: `.claude/settings.json`):
   * the guesses of other dialects about it are dropped.
   */
  exclusive?: boolean;
  /** The JSON Schema kind (schemas/, src/validate/validators.generated.ts) that describes this file. */
  schema?: string;
}

/** A parsed source file, for a JSON Schema check with positions. */
export interface SchemaDocument {
  document: unknown;
  locate: Locator;
  /** Where the schema's declarations sit in `document` (their source, hook names, severities). */
  layout?: SchemaLayout;
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
  why?: string | null;
  /**
   * false: a dispatch would record the declaration `skipped` rather than run it (claude: prompt,
   * agent and mcp_tool handlers; codex: mcp_tool, and untrusted hooks without --trust-all).
   */
  runnable?: boolean;
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
  /**
   * Watches the runs (the OpenTelemetry export, only when exporting): call `beforeRun()` just
   * before starting each hook process and add its `env` to that process's environment, then
   * `end(record)` once the run's record is built (src/telemetry/observer.ts).
   */
  observer?: RunObserver;
}

/** What `plan` needs: a dispatch request without the parts that run or record anything. */
export type PlanRequest = Omit<
  DispatchRequest,
  'sessionId' | 'dispatchId' | 'depth' | 'executor' | 'onRecord' | 'onNotification'
> & {
  /** `--session`, when given (the payload's own session_id is the dialect's to read). */
  sessionId?: string;
};

/** What a dispatch returns; `fire -o json` prints it as is (SPEC §6, claude.md §6). */
export interface DispatchResult {
  verdict: string;
  payload: Record<string, unknown>;
  runs: RunRecord[];
  error: string | null;
  /**
   * For the human Error cell only, by run_id: the text shown in place of the record's error —
   * after exit 126/127, the first line of the hook's stderr (`…: not found (exit 127)`). The fire
   * use case sets it not enumerable: it is never recorded nor printed as JSON (SPEC §5 `error`).
   */
  terminal_errors?: ReadonlyMap<string, string>;
  [extra: string]: unknown;
}

/** A flag of every command that stands for an environment variable (see Dialect.globalFlags). */
export interface DialectFlag {
  name: string;
  env: string;
  description: string;
}

/** One change of a catalog version (`hooks events --changes`). */
export interface CatalogChange {
  /** `event_added`, `family_removed`, `matcher_field_added`, `patch_changed`, … */
  kind: string;
  name: string;
  /** Where the item was added or removed (families, payload types); empty when it stands alone. */
  in: string[];
  detail?: string;
}

/** One version of a dialect's event catalog and what it changed against the one before. */
export interface CatalogVersionChanges {
  /** The runtime the catalog belongs to, as users call it (`CompozyOS`). */
  runtime: string;
  /** The label `--compozy-version` takes. */
  version: string;
  /** How messages name it, when that differs from the label (`v0.3.0`). */
  name: string;
  date: string | null;
  /** How well the catalog of this version is known (`exact`, `partial`, `unknown`, …). */
  catalog: string;
  previous: string | null;
  /** A version whose catalog is unknown behaves as this one. */
  uses?: string;
  /** A snapshot line outside the release order: never selectable, its items are in no release. */
  outside_release_order?: boolean;
  /** The version commands use now (the newest, or --compozy-version). */
  selected?: boolean;
  changes: CatalogChange[];
}

// ---- edit (SPEC §6.1) ----

export type EditAction = 'create' | 'update' | 'delete' | 'enable' | 'disable';

/** Which config file a change goes to. */
export type EditScope = 'workspace' | 'global';

export interface ChangeRequest {
  action: EditAction;
  name: string;
  scope: EditScope;
  /** create/update: the fields to set or remove, as the editing dialect parsed them from flags. */
  changes?: readonly unknown[];
  dryRun: boolean;
  loc: Locations;
  env: NodeJS.ProcessEnv;
}

/** What happened to one file (`targets` of the edit commands' JSON). */
export interface FileChange {
  dialect: string;
  file: string;
  changed: boolean;
  /** The file did not exist before (create). */
  created?: boolean;
  /** --dry-run only: the unified diff ('' when nothing would change). */
  diff?: string;
}

/** A config file that holds declarations, as the ownership rules see it. */
export interface EditTarget {
  file: string;
  /** Names its declarations have. */
  names: string[];
  /** It exists but cannot be read as declarations: any change to it is refused. */
  unreadable: boolean;
}

/** Declarations written in config files, changed in place (compozy: config.toml). */
export interface ConfigEditor {
  /** The config file of a scope. */
  fileOf(loc: Locations, scope: EditScope): string;
  /** The one source these edits write; a name owned only by another source is immutable. */
  readonly source: string;
  readTarget(file: string, req: ChangeRequest): Promise<EditTarget>;
  /** The edit commands' field flags as this dialect's changes; a usage error when they do not fit the action. */
  changesFromFlags(action: EditAction, flags: Record<string, unknown>): Promise<readonly unknown[] | undefined>;
  /** Runs the change on one file (under its lock), or computes its diff on a dry run. */
  change(req: ChangeRequest, file: string, name: string): Promise<{ change: FileChange; warnings: string[] }>;
}

/** enable/disable through a switch kept outside the declarations (cosh: states/hooks.json). */
export interface HookSwitch {
  /** The switch lists the name as disabled (enable also cleans up a name whose hook is gone). */
  holds(loc: Locations, name: string): Promise<boolean>;
  set(req: ChangeRequest, name: string, disabled: boolean): Promise<FileChange>;
}

export interface DialectMutations {
  /** How a change message names one of this dialect's hooks, before its quoted name: `hook`, `cosh hook`. */
  readonly noun: string;
  readonly config?: ConfigEditor;
  readonly switch?: HookSwitch;
}

export interface Dialect {
  /** `compozy`, `cosh`, `claude`: the value of `--dialect` and of every record's `dialect`. */
  readonly name: string;
  /** The dialect's source names (`hooks list --source`), in dispatch order. */
  readonly sources: readonly string[];
  /** The environment variables that move this dialect's files, as [name, what], for `--help`. */
  readonly environment?: readonly (readonly [string, string])[];
  /** Codes only this dialect emits, each with a one-line meaning (shared ones: declarations/codes.ts). */
  readonly diagnosticCodes?: Readonly<Record<string, string>>;

  // ---- settings (optional) ----
  /**
   * Flags this dialect adds to every command, each standing for an environment variable the flag
   * beats (compozy: `--compozy-version` = HOOKCTL_COMPOZY_VERSION, SPEC §10).
   */
  readonly globalFlags?: readonly DialectFlag[];
  /**
   * Reads the dialect's settings once, at the start of every command, from `env` (the invoking
   * environment with the global flags applied). `typed` holds the variables a flag typed on the
   * command line set: a bad value there is a usage error at once; a bad value that only the
   * environment holds concerns this dialect alone, and is the usage error of the first command
   * that reads this dialect's settings (issue 24).
   */
  configure?(env: NodeJS.ProcessEnv, typed?: ReadonlySet<string>): void;
  /** Which version of its event catalog the dialect uses now, as `hooks events` shows it. */
  catalogVersion?(): string;
  /** The label of the release it follows now (claude: `2.1.295`), for reports that name it. */
  releaseLabel?(): string;
  /** `hooks events --changes`: how the dialect's event catalog changed between its versions. */
  catalogChanges?(): Promise<CatalogVersionChanges[]>;

  // ---- events (synchronous and light) ----
  eventRows(): readonly EventRow[];
  hasEvent(event: string): boolean;
  /** A usage-error text for an event this dialect knows to be gone (`... was removed; use ...`). */
  removedEventHint?(event: string): string | undefined;
  eventDetail(event: string): Promise<EventDetail | undefined>;
  eventSchemas(event: string): Promise<EventSchemas | undefined>;

  // ---- where things are ----
  /** The folder holding `<session_id>/hook-runs.jsonl` for this dialect. */
  sessionsDir(loc: Locations): string;

  // ---- sources ----
  loadCatalog(loc: Locations, env: NodeJS.ProcessEnv): Promise<DialectCatalog>;
  /**
   * Notes for stderr about files the runtime would not read from this workspace although a user
   * may expect it to (claude: the git root's project settings, from a sub-folder). Light: a stat or two.
   */
  workspaceNotes?(loc: Locations, env: NodeJS.ProcessEnv): string[];
  /**
   * What hookctl cannot see into for these events, from the loaded catalog's context: stderr
   * lines for list, info, fire and --dry-run, and fields the fire and dry-run documents carry
   * (claude: the mods that may intercept them, claude.md §1.1).
   */
  eventNotes?(context: unknown, events: readonly string[]): { notes: string[]; fields: Record<string, unknown> };
  /** `validate FILE`: this dialect's verdict on a file, or undefined when the file is not its kind. */
  /** `text` is undefined when the file is not readable text (missing, binary, invalid UTF-8). */
  validateFile(
    file: string,
    text: string | undefined,
    loc: Locations,
    env: NodeJS.ProcessEnv,
    /** `forced`: `--dialect` named this dialect, so a file it can read is read as its own. */
    opts?: { forced?: boolean },
  ): Promise<FileValidation | undefined>;
  /** Asked last by `validate FILE`, and answers for every file (at most one dialect sets it). */
  readonly claimsUnknownFiles?: boolean;
  /** `validate` of every source: the schema kind of a file loadCatalog read, by where it was found. */
  schemaKindOf?(file: string, loc: Locations): string | undefined;
  /** The document a schema kind of this dialect checks; undefined when there is nothing to check. */
  schemaDocument?(kind: string, file: string, text: string): Promise<SchemaDocument | undefined>;

  // ---- fire ----
  /**
   * The session id a payload names, in this dialect's words; undefined when it names none. The
   * session of a dispatch is `--session`, else this, else a new id (the fire use case decides).
   */
  sessionIdFor(payload: Record<string, unknown>): string | undefined;
  plan(req: PlanRequest): Promise<PlanEntry[]>;
  dispatch(req: DispatchRequest): Promise<DispatchResult>;
  /** The exit code of a finished dispatch (SPEC §6). */
  exitCode(result: DispatchResult): number;
  /**
   * `hooks test --init`: the skeleton payload with what `d`'s own matcher needs to run it (claude:
   * the group matcher's field holds a value the matcher accepts); absent: the skeleton as it is.
   */
  starterPayload?(d: OrderedDeclaration, payload: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Every word a dispatch's `verdict` can be (`hooks test` checks an expected verdict against it). */
  readonly verdicts?: readonly string[];

  // ---- optional: where a dialect's shape differs from the shared views (claude) ----
  /** Fields this dialect's `hooks list` JSON entries add or replace (claude: handler_type, label, …). */
  listFields?(d: OrderedDeclaration): Record<string, unknown>;
  /** Fields `hooks info` adds beyond listFields (claude: the handler as written). */
  infoFields?(d: OrderedDeclaration): Record<string, unknown>;
  /**
   * Rows the human `hooks info` adds after the shared ones, as [label, text], read off the info
   * entry (its JSON object) — codex: the trust, the key and both hashes.
   */
  infoRows?(info: Readonly<Record<string, unknown>>): readonly (readonly [string, string])[];
  /**
   * `hooks list --untrusted`: the runtime will skip this declaration until the user reviews it
   * (codex: untrusted or modified). Absent: no declaration of this dialect needs a review.
   */
  needsReview?(d: OrderedDeclaration): boolean;
  /** The human columns of `hooks list` when every row is this dialect's (or `--dialect <name>`). */
  readonly listColumns?: {
    head: readonly Heading[];
    row(d: OrderedDeclaration): (string | number | null)[];
  };
  /** `hooks list --agent NAME`: whether a declaration is that agent's (default: `matcher.agent_name`). */
  isAgentHook?(d: OrderedDeclaration, agent: string): boolean;
  /** `fire` and `fire --dry-run` for a person, as data, when the shared views do not fit. */
  fireReports?(): Promise<DialectFireReports>;

  // ---- optional: a dialect that runs whole changes itself ----
  // For edits that do not fit `mutations`' name-keyed config editor (claude: positional names,
  // three scopes, no NAME on create, `--all-hooks`): the change command hands it the parsed flags.
  /**
   * Whether a change given without `--dialect` is this dialect's (its name form, its event).
   * `hooks trust` asks it too, with action `trust`, for each NAME.
   */
  ownsChange?(req: { action: string; name?: string; event?: string; allHooks?: boolean }): boolean;
  changeHooks?(req: DialectChangeRequest): Promise<DialectChangeResult>;

  // ---- optional: hook trust ----
  /**
   * `hooks trust`: for a dialect whose runtime runs a hook only once a person has approved its
   * exact definition, records that approval for the named hooks (or, with `all`, every hook that
   * is active but not yet approved, or changed since). Absent: the dialect's hooks need no trust.
   * A name the dialect does not know is `hook_not_found`.
   */
  trustHooks?(req: DialectTrustRequest): Promise<DialectTrustResult>;

  // ---- edit ----
  /** What the edit commands may change; absent: this dialect's hooks are read only. */
  readonly mutations?: DialectMutations;
}

/** What a person sees of a dispatch and of its plan; src/views/fire.ts paints and fits it. */
export interface DialectFireReports {
  result(result: DispatchResult & { event: string; dialect: string }, exitCode: number): FireReport;
  /** The plan's table; the shared view says when no hook is declared. */
  plan(plan: { event: string; dialect: string; plan: PlanEntry[] }): ReportTable;
}

/** One run of create/update/delete/enable/disable, with the command's flags as parsed. */
export interface DialectChangeRequest {
  action: 'create' | 'update' | 'delete' | 'enable' | 'disable';
  /** The NAME argument, when given. */
  name?: string;
  /** Every flag of the command (the dialect reads its own). */
  flags: Record<string, unknown>;
  dryRun: boolean;
  loc: Locations;
  env: NodeJS.ProcessEnv;
}

/** What `hooks trust` asks of one dialect. */
export interface DialectTrustRequest {
  /** The NAME arguments (empty with `all`). */
  names: string[];
  all: boolean;
  dryRun: boolean;
  loc: Locations;
  env: NodeJS.ProcessEnv;
}

/** What one dialect's trust run did: the hooks it trusted, and the one file it wrote. */
export interface DialectTrustResult {
  dialect: string;
  hooks: {
    name: string;
    /** The runtime's own key of the hook's approval. */
    key: string;
    /** The definition's hash now recorded as approved. */
    hash: string;
    /** false: it was already trusted with this hash. */
    changed: boolean;
  }[];
  file: string;
  changed: boolean;
  created?: boolean;
  dry_run: boolean;
  diff?: string;
  warnings: string[];
}

/** Shaped as the shared change result (src/app/edit.ts), so one view prints both. */
export interface DialectChangeResult {
  action: DialectChangeRequest['action'];
  name: string;
  scope: string | null;
  file: string;
  changed: boolean;
  dry_run: boolean;
  diff?: string;
  targets: { dialect: string; file: string; changed: boolean; created?: boolean; diff?: string }[];
  warnings: string[];
  /** Lines for stderr after `note: `: what the change means beyond the file (codex: hook trust). */
  notes?: string[];
}
