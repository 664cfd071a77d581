// The `hooks fire` use case: parse the payload, choose the event's dialect (the registry
// answers), load only that dialect's sources, refuse on declaration errors, then dispatch with the
// real executor and record every run. The command only parses flags; views/fire.ts renders.
import { didYouMean } from '../matching/suggest.js';
import type { Diagnostic } from '../declarations/diagnostics.js';
import { lineStartsOf, parseJsonWithPositions as parseStrictJson } from '../declarations/json.js';
import { positionOfOffset, type Position } from '../declarations/source-file.js';
import { unknownEventError } from './event-names.js';
import type { OrderedDeclaration } from '../declarations/model.js';
import { dialects, dialectNamed } from '../dialects/registry.js';
import type { Dialect, DialectCatalog, DispatchResult, PlanEntry } from '../dialects/types.js';
import { ExitCode, HookctlError, eventNotInDialectError } from '../errors.js';
import type { ExecResult, Executor } from '../exec/types.js';
import { assertSessionId, newDispatchId, newSessionId } from '../ledger/ids.js';
import type { RunRecord } from '../ledger/record.js';
import { hookRunsFile, type Locations } from '../paths.js';
import { otlpExportConfig } from '../telemetry/config.js';
import { displayPath } from '../display-path.js';

export type Payload = Record<string, unknown>;

export interface FireRequest {
  event: string;
  /** Raw payload text; undefined or white space = `{}`. */
  payloadText: string | undefined;
  /** Where the payload came from, for its error messages (`payload.json:3:7: …`); default `<stdin>`. */
  payloadSource?: string;
  /** `--session`: the session of the run; it also replaces the payload's own session_id (SPEC §7.3). */
  sessionId?: string;
  /** `--hook NAME`: only the declarations of that name run (SPEC §7.3). */
  hookName?: string;
  /** `--no-record`: nothing is written to the ledger. */
  noRecord?: boolean;
  /**
   * `--record-payload` (or HOOKCTL_RECORD_PAYLOADS=1 in `env`): also append the payload, redacted,
   * to the session's opt-in payload log for `hooks replay` (replay.md §2.2). Only `fire` writes it.
   */
  recordPayload?: boolean;
  /**
   * `--skip-invalid` (SPEC §7.2): run the valid declarations although others have errors; each
   * declaration error is handed to this callback (the command prints it on stderr) instead of
   * refusing the fire.
   */
  onSkippedInvalid?: (skipped: Diagnostic[]) => void;
  /**
   * `--dry-run`: the declaration errors of the chosen dialect, which make `fire` refuse. One that
   * holds no declaration (a file that does not parse, a misspelt event key) has no row in the
   * plan, so the command prints them all on stderr.
   */
  onSourceErrors?: (event: string, errors: Diagnostic[]) => void;
  /** `--verbose`: called after each hook process ends, with what it printed (shown, never recorded). */
  onHookOutput?: (hook: string, exec: ExecResult) => void;
  /** `--dialect`: the dialect whose catalog the event must be in. */
  dialect?: string;
  loc: Locations;
  env: NodeJS.ProcessEnv;
  /** Dialect-specific selections from the command line (claude: `--skill`, `--agent`). */
  options?: Record<string, unknown>;
  /** Called as each run is recorded (for `-o jsonl` streaming). */
  onRecord?: (r: RunRecord) => void;
  onNotification?: (n: unknown) => void;
  /** A dispatch's warnings for stderr (a result's `warnings` never reach its JSON), and the export's. */
  onWarning?: (w: string) => void;
  /** hookctl's version (the exported telemetry's instrumentation scope). */
  version?: string;
}

/** `fire -o json`: who dispatched, then the dialect's own result, key for key. */
export interface FireResult extends DispatchResult {
  event: string;
  dialect: string;
  session_id: string;
  dispatch_id: string;
}

export interface DryRunResult {
  event: string;
  dialect: string;
  plan: PlanEntry[];
  /** What the dialect adds about the event (claude: `mods`, claude.md §1.1). */
  [extra: string]: unknown;
}

/**
 * Which dialect fires an event (claude.md §7). With `--dialect`, the event must be in its
 * catalog. Otherwise the one dialect whose catalog has it; when several have it (claude shares
 * cosh's event names), those that declare the event in any status decide: one is used, none
 * falls back to the first in registry order, more than one is ambiguous. A dialect any of whose
 * sources has an error counts as declaring every event of its catalog (claude.md §7 rule 3): a
 * settings file that does not parse, or whose event key is misspelt, may be where the event's
 * guard lives, so the event never passes silently to another dialect — the broken one is chosen
 * (and fire refuses, naming the errors) or the choice is ambiguous. Unknown events are a usage
 * error (exit 2), found before the payload is read (candidatesFor). Returns the catalog when it
 * had to be loaded to decide.
 */
export async function chooseDialect(
  candidates: readonly Dialect[],
  event: string,
  loadCatalogOf: (d: Dialect) => Promise<DialectCatalog>,
): Promise<{ dialect: Dialect; catalog?: DialectCatalog }> {
  if (candidates.length === 1) return { dialect: candidates[0]! };
  const loaded = await Promise.all(
    candidates.map(async (dialect) => ({ dialect, catalog: await loadCatalogOf(dialect) })),
  );
  const declaring = loaded.filter(
    (c) => hasSourceErrors(c.catalog) || c.catalog.declarations.some((d) => d.event === event),
  );
  if (declaring.length === 1) return declaring[0]!;
  if (declaring.length === 0) return loaded[0]!;
  const names = declaring.map((c) => c.dialect.name).sort();
  throw new HookctlError(
    'ambiguous_dialect',
    `event "${event}" is declared in more than one dialect (${names.join(', ')}); pass ${names.map((n) => `--dialect ${n}`).join(' or ')}`,
    ExitCode.usage,
  );
}

/** Whether any source of the dialect has an error (a warning never changes the choice). */
export function hasSourceErrors(catalog: DialectCatalog): boolean {
  return catalog.diagnostics.some((d) => d.severity === 'error');
}

/** The dialects whose catalog has the event, at least one; else a usage error (exit 2). */
export function candidatesFor(event: string, requested: string | undefined): readonly Dialect[] {
  if (requested !== undefined) {
    const dialect = dialectNamed(requested);
    if (dialect?.hasEvent(event)) return [dialect];
    // An event of another release of that dialect's runtime says which (claude.md §9).
    const gone = dialect?.removedEventHint?.(event);
    if (gone !== undefined) throw new HookctlError('unknown_event', gone, ExitCode.usage);
    // The closest names of that dialect only (SPEC §7.1): `PreToolUs` finds `PreToolUse`.
    const hint = dialect
      ? didYouMean(
          event,
          dialect.eventRows().map((r) => r.event),
        )
      : '';
    throw eventNotInDialectError(event, requested, hint);
  }
  const candidates = dialects().filter((d) => d.hasEvent(event));
  if (candidates.length > 0) return candidates;
  throw unknownEventError(event); // a removed event's hint, else the closest names
}

/** Deeper payloads are refused: hooks get the payload re-serialised, and that recursion is bounded. */
export const MAX_PAYLOAD_NESTING = 1000;

/**
 * A payload must be one JSON object; an empty input is `{}`. Anything else: exit 2. A UTF-8
 * byte-order mark at the start is skipped (editors on Windows write one); an error names the
 * source and the line and column: `payload.json:3:7: invalid JSON: Unexpected token 'o'` (SPEC §7.4).
 */
export function parsePayload(input: string | undefined, source = '<stdin>'): Payload {
  const text = input?.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const at = badTokenPosition(text, e instanceof Error ? e.message : String(e));
    const where = at ? `:${at.line}:${at.column ?? 1}` : '';
    throw new HookctlError('invalid_payload', `${source}${where}: invalid JSON: ${jsonErrorText(e)}`, ExitCode.usage);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    throw new HookctlError('invalid_payload', `${source}: payload must be a JSON object, got ${kind}`, ExitCode.usage);
  }
  if (nestingExceeds(value, MAX_PAYLOAD_NESTING)) {
    throw new HookctlError(
      'invalid_payload',
      `payload is nested more than ${MAX_PAYLOAD_NESTING} levels deep`,
      ExitCode.usage,
    );
  }
  return value as Payload;
}

/**
 * Where the bad token of a payload is (SPEC §7.4: `payload.json:3:8`), not where the input ends:
 * V8's offset when its message gives one, else where the strict parser stopped, moved on to the
 * token V8 names (`{"a": tru}`: V8 objects to the `}`, the strict parser to the `t` before it).
 */
function badTokenPosition(text: string, v8Message: string): Position | undefined {
  const at = /at position (\d+)/.exec(v8Message);
  if (at) return positionOfOffset(text, Number(at[1]));
  const strict = parseStrictJson(text);
  if (strict.ok) return undefined;
  let offset = (lineStartsOf(text)[strict.error.line - 1] ?? 0) + strict.error.column - 1;
  const token = /^Unexpected token '(.+?)'/u.exec(v8Message)?.[1];
  const named = token === undefined ? -1 : text.indexOf(token, offset);
  if (named >= 0) offset = named;
  return positionOfOffset(text, offset);
}

/**
 * JSON.parse's reason on one line, without the excerpt of the input V8 quotes (it may span lines
 * and carry a secret): `Unexpected token 'o', "…" is not valid JSON` → `Unexpected token 'o'`.
 */
function jsonErrorText(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  // the position is said in line:column before the text
  const reason = message
    .replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, '')
    .replace(/ in JSON at position \d+.*$/s, '');
  return JSON.stringify(reason).slice(1, -1); // control characters escaped: one line
}

/** Whether arrays/objects nest deeper than `max`; iterative, so any depth is safe to check. */
function nestingExceeds(root: object, max: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Object.values(value as object)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The dialect that fires an event, with its whole catalog (every status, and its diagnostics). */
export interface EventCatalog {
  event: string;
  dialect: Dialect;
  catalog: DialectCatalog;
}

/**
 * Chooses the event's dialect (candidatesFor, chooseDialect) and loads its catalog. A caller
 * that fires many times over the same sources passes `loadCatalogOf` to share the loads
 * (`hooks test` loads each test file's catalogs once).
 */
export async function loadEventCatalog(
  req: Pick<FireRequest, 'event' | 'dialect' | 'loc' | 'env'>,
  loadCatalogOf: (d: Dialect) => Promise<DialectCatalog> = (d) => d.loadCatalog(req.loc, req.env),
): Promise<EventCatalog> {
  const chosen = await chooseDialect(candidatesFor(req.event, req.dialect), req.event, loadCatalogOf);
  return {
    event: req.event,
    dialect: chosen.dialect,
    catalog: chosen.catalog ?? (await loadCatalogOf(chosen.dialect)),
  };
}

/**
 * Refuses (exit 2) when any declaration of the dialect has an error (SPEC §6), unless the errors
 * are to be shown instead: `--skip-invalid` runs the valid ones and hands each error to
 * `onSkippedInvalid` (SPEC §7.2). `--dry-run` never calls this: it never refuses.
 */
export function assertDispatchable(loaded: EventCatalog, onSkippedInvalid?: (skipped: Diagnostic[]) => void): void {
  const errors = loaded.catalog.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length === 0) return;
  if (!onSkippedInvalid) throw declarationErrors(loaded.event, errors);
  onSkippedInvalid(errors.map((d) => (d.hook ? d : { ...d, hook: declarationNamed(loaded.catalog, d) })));
}

/**
 * The name of the invalid declaration an error belongs to, for a diagnostic that does not carry
 * it (issue 28: `--skip-invalid` names what it skipped); undefined for an error of a whole file.
 */
function declarationNamed(catalog: DialectCatalog, d: Diagnostic): string | undefined {
  const same = (x: Diagnostic) =>
    x === d || (x.file === d.file && x.line === d.line && x.code === d.code && x.message === d.message);
  return catalog.declarations.find((decl) => decl.name !== null && decl.diagnostics?.some(same))?.name ?? undefined;
}

/**
 * `--hook NAME`: the event's declarations of that name, which must exist (a typo would run
 * nothing and say nothing: a usage error with the closest names).
 */
function selectHook(
  hookName: string | undefined,
  event: string,
  declarations: OrderedDeclaration[],
): OrderedDeclaration[] {
  if (hookName === undefined) return declarations;
  const named = declarations.filter((d) => d.name === hookName);
  if (named.length > 0) return named;
  const names = declarations.map((d) => d.name).filter((n): n is string => n !== null);
  throw new HookctlError(
    'hook_not_found',
    `no hook named "${hookName}" is declared for "${event}"${didYouMean(hookName, names)}`,
    ExitCode.usage,
  );
}

/** `--session` is the session of the run: it replaces a session_id the payload carries (SPEC §7.3). */
function withSession(payload: Payload, sessionId: string | undefined): Payload {
  if (sessionId === undefined || payload.session_id === undefined) return payload;
  return { ...payload, session_id: sessionId };
}

function declarationErrors(event: string, errors: Diagnostic[]): HookctlError {
  const details = errors.map((d) => `${displayPath(d.file)}:${d.line}: ${d.message}`);
  return new HookctlError(
    'declarations_invalid',
    `refusing to fire "${event}": ${errors.length} declaration error${errors.length === 1 ? '' : 's'} (a guard with a typo must not silently stop guarding)`,
    ExitCode.usage,
    {
      details,
      data: {
        diagnostics: errors.map((d) => ({ file: displayPath(d.file), line: d.line, code: d.code, message: d.message })),
      },
    },
  );
}

/** Every declaration of the event, every status, in dispatch order. */
export function declarationsOf(catalog: DialectCatalog, event: string): OrderedDeclaration[] {
  return catalog.declarations.filter((d) => d.event === event);
}

/** Firing on a loaded catalog: the payload already parsed. */
export interface LoadedFireRequest extends Omit<FireRequest, 'event' | 'payloadText' | 'dialect'> {
  payload: Payload;
  /** Run only the declarations of these names (`hooks test`'s `hooks`); undefined = all. */
  hooks?: readonly string[];
  /**
   * Record into `<sessionsDir>/<session_id>/hook-runs.jsonl` instead of the dialect's sessions
   * folder: `hooks test` gives each case a temporary ledger, so tests never write the user's.
   */
  sessionsDir?: string;
}

/** The declarations a fire runs: `hooks test`'s `hooks` names, then `--hook NAME`; undefined = all. */
function selectedDeclarations(
  all: OrderedDeclaration[],
  event: string,
  req: Pick<LoadedFireRequest, 'hooks' | 'hookName'>,
): OrderedDeclaration[] {
  const hooks = req.hooks;
  const named = hooks === undefined ? all : all.filter((d) => d.name !== null && hooks.includes(d.name));
  return selectHook(req.hookName, event, named);
}

export async function planFire(req: FireRequest): Promise<DryRunResult> {
  candidatesFor(req.event, req.dialect); // an unknown event is reported before the payload
  const payload = withSession(parsePayload(req.payloadText, req.payloadSource), req.sessionId);
  // No assertDispatchable: --dry-run never refuses, its plan shows invalid declarations (SPEC §7.2).
  // A source error that holds no declaration (a file that does not parse, a misspelt event key)
  // has no row in the plan: each is a warning, so the dry run says why `fire` would refuse.
  const loaded = await loadEventCatalog(req);
  const errors = loaded.catalog.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) req.onSourceErrors?.(loaded.event, errors);
  return planLoaded(loaded, { ...req, payload });
}

export async function planLoaded(loaded: EventCatalog, req: LoadedFireRequest): Promise<DryRunResult> {
  const all = declarationsOf(loaded.catalog, loaded.event);
  const selected = new Set(selectedDeclarations(all, loaded.event, req));
  // Those that never run (disabled, blocked, overridden) included: each shows why it does not match.
  const entries = await loaded.dialect.plan({
    event: loaded.event,
    payload: req.payload,
    declarations: all,
    loc: req.loc,
    env: req.env,
    sessionId: req.sessionId,
    context: loaded.catalog.context,
    ...(req.options ? { options: req.options } : {}),
  });
  // plan() answers one entry per declaration, in order: those not selected are marked so.
  const why = req.hookName !== undefined ? `--hook ${req.hookName}` : 'not among the hooks selected';
  const plan = entries.map((entry, i) =>
    selected.has(all[i]!) ? entry : { ...entry, matched: false, status: 'not_selected', why },
  );
  const about = loaded.dialect.eventNotes?.(loaded.catalog.context, [loaded.event]);
  for (const note of about?.notes ?? []) req.onWarning?.(note);
  return { event: loaded.event, dialect: loaded.dialect.name, plan, ...about?.fields };
}

export async function fire(request: FireRequest): Promise<FireResult> {
  // A plain copy: every read of process.env is a call into the C environment, and every hook's
  // environment is built from it.
  const req: FireRequest = { ...request, env: { ...request.env } };
  candidatesFor(req.event, req.dialect); // an unknown event is reported before the payload
  const payload = withSession(parsePayload(req.payloadText, req.payloadSource), req.sessionId);
  const loaded = await loadEventCatalog(req);
  assertDispatchable(loaded, req.onSkippedInvalid);
  const result = await fireLoaded(loaded, { ...req, payload });
  if (
    !req.noRecord &&
    (req.recordPayload === true || /^(1|true)$/i.test(req.env.HOOKCTL_RECORD_PAYLOADS?.trim() ?? ''))
  )
    await recordPayload(loaded, req, payload, result);
  return result;
}

/** The payload log's line for this dispatch (replay.md §2.2); a failure costs a warning only. */
async function recordPayload(loaded: EventCatalog, req: FireRequest, payload: Payload, result: FireResult) {
  const { appendPayloadLine, payloadLogOf } = await import('../replay/payload-log.js');
  const file = payloadLogOf(hookRunsFile(loaded.dialect.sessionsDir(req.loc), result.session_id));
  const facts = {
    dispatch_id: result.dispatch_id,
    session_id: result.session_id,
    dialect: result.dialect,
    event: result.event,
    verdict: result.verdict,
    workspace: req.loc.workspace,
    recorded_at: new Date().toISOString(),
  };
  const warning = await appendPayloadLine(file, facts, payload, req.env).catch(
    (err: unknown) =>
      `payload log ${displayPath(file)} was not written: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
  );
  if (warning !== undefined) req.onWarning?.(warning);
}

export async function fireLoaded(loaded: EventCatalog, req: LoadedFireRequest): Promise<FireResult> {
  const { dialect, catalog, event } = loaded;
  const declarations = selectedDeclarations(declarationsOf(catalog, event), event, req);
  const sessionId = assertSessionId(req.sessionId ?? dialect.sessionIdFor(req.payload) ?? newSessionId());
  const dispatchId = newDispatchId();

  const [{ runSubprocess }, { LedgerWriter }, { assertLedgerWritable }, { fireDepthFromEnv }] = await Promise.all([
    import('../exec/subprocess.js'),
    import('../ledger/writer.js'),
    import('../ledger/folder-check.js'),
    import('../exec/depth.js'),
  ]);
  // Records are appended in the order runs end, each with one write on a file kept open for the
  // dispatch: concurrent `hooks fire` processes on one session never tear each other's lines.
  const ledger = req.noRecord
    ? undefined
    : new LedgerWriter(hookRunsFile(req.sessionsDir ?? dialect.sessionsDir(req.loc), sessionId));
  if (ledger) assertLedgerWritable(ledger.file); // before any hook runs: a verdict must never be lost
  // The hooks have run (their side effects happened) by the time a record is written: a ledger
  // that cannot take it (a full disk, say) costs the record, never the verdict or its exit code.
  const unrecorded = { count: 0, error: undefined as unknown };
  const record = (r: RunRecord): Promise<void> | undefined =>
    ledger?.append(r).catch((err: unknown) => {
      unrecorded.count++;
      unrecorded.error ??= err;
    });
  const onOutput = req.onHookOutput;
  // The same executor, always asked to keep stderr: --verbose hands each run's output on, and a
  // run that exits 126 or 127 (not executable, not found) leaves the first line of its stderr for
  // the human Error cell (issue 28). The dialect sees stderr only when it asked for it.
  const startFailures = new Map<string, string[]>();
  const executor: Executor = async (r) => {
    const exec = await runSubprocess({ ...r, captureStderr: true });
    onOutput?.(r.label ?? r.command, exec);
    const line = exec.exitCode === 126 || exec.exitCode === 127 ? firstLine(exec.stderr) : undefined;
    if (line !== undefined) {
      const key = r.label ?? r.command;
      startFailures.set(key, [...(startFailures.get(key) ?? []), `${line} (exit ${exec.exitCode})`]);
    }
    if (r.captureStderr) return exec;
    const { stderr: _, ...withoutStderr } = exec;
    return withoutStderr;
  };
  const terminalErrors = new Map<string, string>();
  const noteStartFailure = (r: RunRecord) => {
    if (r.exit_code !== 126 && r.exit_code !== 127) return;
    const text = startFailures.get(r.hook_name ?? '')?.shift();
    if (text !== undefined) terminalErrors.set(r.run_id, text);
  };
  // OpenTelemetry (SPEC §9): its packages load only when an endpoint is set. A dispatch recorded
  // to a temporary ledger (`hooks test`'s cases) is not the user's activity and is not exported.
  const exportConfig = req.sessionsDir === undefined ? otlpExportConfig(req.env) : undefined;
  const telemetry =
    exportConfig === undefined
      ? undefined
      : (await import('../telemetry/fire-export.js')).startFireExport({
          config: exportConfig,
          env: req.env,
          payload: req.payload,
          facts: { dispatchId, sessionId, event, dialect: dialect.name },
          version: req.version ?? '0.0.0',
        });
  let verdict = 'failed';
  try {
    const result = await dialect.dispatch({
      event,
      payload: req.payload,
      declarations,
      loc: req.loc,
      env: req.env,
      sessionId,
      dispatchId,
      depth: fireDepthFromEnv(req.env),
      executor,
      onRecord: (r: RunRecord) => {
        noteStartFailure(r);
        if (r.stdout_json_error !== undefined) req.onWarning?.(stdoutJsonWarning(r));
        req.onRecord?.(r);
        telemetry?.onRecord(r);
        return record(r);
      },
      onNotification: req.onNotification,
      context: catalog.context,
      ...(req.options ? { options: req.options } : {}),
      ...(telemetry !== undefined ? { observer: telemetry } : {}),
    });
    verdict = result.verdict;
    const { warnings, ...rest } = result;
    if (Array.isArray(warnings)) for (const w of warnings) if (typeof w === 'string') req.onWarning?.(w);
    const fired = {
      event,
      dialect: dialect.name,
      session_id: sessionId,
      dispatch_id: dispatchId,
      ...rest,
    } as FireResult;
    // For the terminal only: not enumerable, so neither JSON output nor a record ever holds it.
    Object.defineProperty(fired, 'terminal_errors', { value: terminalErrors, enumerable: false });
    return fired;
  } finally {
    await ledger?.close().catch((err: unknown) => {
      unrecorded.error ??= err;
    });
    if (unrecorded.error !== undefined && ledger !== undefined)
      req.onWarning?.(unrecordedWarning(ledger.file, unrecorded.count, unrecorded.error));
    // After the ledger is complete: the export can only add a warning.
    if (telemetry !== undefined) {
      for (const w of await telemetry.finish({ verdict, failed: verdict === 'failed' })) req.onWarning?.(w);
    }
  }
}

/**
 * A run whose stdout starts with `{` but is not valid JSON (issue 28), for every dialect:
 * `<hook>: stdout starts with "{" but is not valid JSON (1:20): read as plain text`, or `: the run
 * failed` where the dialect's rules made it a failure (compozy, cosh, claude from 2.1.248).
 */
function stdoutJsonWarning(r: RunRecord): string {
  const at = /^\d+:\d+/.exec(r.stdout_json_error ?? '')?.[0] ?? '?';
  const what = r.outcome === 'failed' ? 'the run failed' : 'read as plain text';
  return `${r.hook_name}: stdout starts with "{" but is not valid JSON (${at}): ${what}`;
}

/**
 * The first non-blank line of a hook's stderr, one line of printable text (at most 300
 * characters): `/bin/sh: 1: ./x.sh: not found`.
 */
function firstLine(stderr: string | undefined): string | undefined {
  const line = stderr
    ?.split('\n')
    // eslint-disable-next-line no-control-regex
    .map((l) => l.replace(/\x1b\[[0-9;?]*[A-Za-z]|[\u0000-\u001f\u007f]/g, '').trim())
    .find((l) => l !== '');
  if (line === undefined) return undefined;
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** What a ledger that failed did not keep, in one line (the error's code, not its stack). */
function unrecordedWarning(file: string, count: number, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
  const what = count === 1 ? '1 run record was' : `${count} run records were`;
  return `${what} not recorded: cannot write ${file}: ${code}; the verdict and its exit code are not affected`;
}

/** The exit code of a finished fire (SPEC §6): the dispatching dialect's reading of its verdict. */
export function fireExitCode(r: FireResult): number {
  return dialectNamed(r.dialect)!.exitCode(r);
}
