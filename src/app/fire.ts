// The `hooks fire` use case: parse the payload, choose the event's dialect (the registry
// answers), load only that dialect's sources, refuse on declaration errors, then dispatch with the
// real executor and record every run. The command only parses flags; views/fire.ts renders.
import type { Diagnostic } from '../declarations/diagnostics.js';
import type { OrderedDeclaration } from '../declarations/model.js';
import { dialects, dialectNamed } from '../dialects/registry.js';
import type { Dialect, DialectCatalog, DispatchResult, PlanEntry } from '../dialects/types.js';
import { ExitCode, HookctlError } from '../errors.js';
import { assertSessionId, newDispatchId, newSessionId } from '../ledger/ids.js';
import type { RunRecord } from '../ledger/record.js';
import { hookRunsFile, type Locations } from '../paths.js';
import { otlpExportConfig } from '../telemetry/config.js';
import { displayPath } from '../views/location.js';

export type Payload = Record<string, unknown>;

export interface FireRequest {
  event: string;
  /** Raw payload text; undefined or white space = `{}`. */
  payloadText: string | undefined;
  sessionId?: string;
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
}

const unknownEvent = (event: string) =>
  new HookctlError('unknown_event', `unknown event "${event}" (see: hookctl hooks events)`, ExitCode.usage);

/**
 * Which dialect fires an event (claude.md §7). With `--dialect`, the event must be in its
 * catalog. Otherwise the one dialect whose catalog has it; when several have it (claude shares
 * cosh's event names), those that declare the event in any status decide: one is used, none
 * falls back to the first in registry order, more than one is ambiguous. Unknown events are a
 * usage error (exit 2), found before the payload is read (candidatesFor). Returns the catalog
 * when it had to be loaded to decide.
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
  const declaring = loaded.filter((c) => c.catalog.declarations.some((d) => d.event === event));
  if (declaring.length === 1) return declaring[0]!;
  if (declaring.length === 0) return loaded[0]!;
  const names = declaring.map((c) => c.dialect.name).sort();
  throw new HookctlError(
    'ambiguous_dialect',
    `event "${event}" is declared in more than one dialect (${names.join(', ')}); pass ${names.map((n) => `--dialect ${n}`).join(' or ')}`,
    ExitCode.usage,
  );
}

/** The dialects whose catalog has the event, at least one; else a usage error (exit 2). */
export function candidatesFor(event: string, requested: string | undefined): readonly Dialect[] {
  if (requested !== undefined) {
    const dialect = dialectNamed(requested);
    if (dialect?.hasEvent(event)) return [dialect];
    throw new HookctlError(
      'unknown_event',
      `unknown event "${event}" for dialect "${requested}" (see: hookctl hooks events --dialect ${requested})`,
      ExitCode.usage,
    );
  }
  const candidates = dialects().filter((d) => d.hasEvent(event));
  if (candidates.length > 0) return candidates;
  for (const d of dialects()) {
    const hint = d.removedEventHint?.(event);
    if (hint) throw new HookctlError('unknown_event', hint, ExitCode.usage);
  }
  throw unknownEvent(event);
}

/** Deeper payloads are refused: hooks get the payload re-serialised, and that recursion is bounded. */
export const MAX_PAYLOAD_NESTING = 1000;

/** A payload must be one JSON object; an empty input is `{}`. Anything else: exit 2. */
export function parsePayload(text: string | undefined): Payload {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new HookctlError('invalid_payload', `payload is not valid JSON: ${jsonErrorText(e)}`, ExitCode.usage);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    throw new HookctlError('invalid_payload', `payload must be a JSON object, got ${kind}`, ExitCode.usage);
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
 * JSON.parse's reason on one line, without the excerpt of the input V8 quotes (it may span lines
 * and carry a secret): `Unexpected token 'o', "…" is not valid JSON` → `Unexpected token 'o'`.
 */
function jsonErrorText(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const reason = message.replace(/, ".*" is not valid JSON$/s, '');
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

/** Refuses (exit 2) when any declaration of the dialect has an error (SPEC §6). */
export function assertDispatchable(loaded: EventCatalog): void {
  const errors = loaded.catalog.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw declarationErrors(loaded.event, errors);
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

function selectedDeclarations(loaded: EventCatalog, hooks: readonly string[] | undefined): OrderedDeclaration[] {
  const all = declarationsOf(loaded.catalog, loaded.event);
  return hooks === undefined ? all : all.filter((d) => d.name !== null && hooks.includes(d.name));
}

export async function planFire(req: FireRequest): Promise<DryRunResult> {
  candidatesFor(req.event, req.dialect); // an unknown event is reported before the payload
  const payload = parsePayload(req.payloadText);
  const loaded = await loadEventCatalog(req);
  assertDispatchable(loaded);
  return planLoaded(loaded, { ...req, payload });
}

export async function planLoaded(loaded: EventCatalog, req: LoadedFireRequest): Promise<DryRunResult> {
  // Those that never run (disabled, blocked, overridden) included: each shows why it does not match.
  const plan = await loaded.dialect.plan({
    event: loaded.event,
    payload: req.payload,
    declarations: selectedDeclarations(loaded, req.hooks),
    loc: req.loc,
    env: req.env,
    sessionId: req.sessionId,
    context: loaded.catalog.context,
    ...(req.options ? { options: req.options } : {}),
  });
  return { event: loaded.event, dialect: loaded.dialect.name, plan };
}

export async function fire(request: FireRequest): Promise<FireResult> {
  // A plain copy: every read of process.env is a call into the C environment, and every hook's
  // environment is built from it.
  const req: FireRequest = { ...request, env: { ...request.env } };
  candidatesFor(req.event, req.dialect); // an unknown event is reported before the payload
  const payload = parsePayload(req.payloadText);
  const loaded = await loadEventCatalog(req);
  assertDispatchable(loaded);
  return fireLoaded(loaded, { ...req, payload });
}

export async function fireLoaded(loaded: EventCatalog, req: LoadedFireRequest): Promise<FireResult> {
  const { dialect, catalog, event } = loaded;
  const sessionId = assertSessionId(req.sessionId ?? dialect.sessionIdFor(req.payload) ?? newSessionId());
  const dispatchId = newDispatchId();

  const [{ runSubprocess }, { LedgerWriter }, { dispatchDepthFromEnv }] = await Promise.all([
    import('../exec/subprocess.js'),
    import('../ledger/writer.js'),
    import('../exec/environment.js'),
  ]);
  // Records are appended in the order runs end, each with one write on a file kept open for the
  // dispatch: concurrent `hooks fire` processes on one session never tear each other's lines.
  const ledger = new LedgerWriter(hookRunsFile(req.sessionsDir ?? dialect.sessionsDir(req.loc), sessionId));
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
      declarations: selectedDeclarations(loaded, req.hooks),
      loc: req.loc,
      env: req.env,
      sessionId,
      dispatchId,
      depth: dispatchDepthFromEnv(req.env) + 1,
      executor: runSubprocess,
      onRecord: (r: RunRecord) => {
        req.onRecord?.(r);
        telemetry?.onRecord(r);
        return ledger.append(r);
      },
      onNotification: req.onNotification,
      context: catalog.context,
      ...(req.options ? { options: req.options } : {}),
      ...(telemetry !== undefined ? { observer: telemetry } : {}),
    });
    verdict = result.verdict;
    const { warnings, ...rest } = result;
    if (Array.isArray(warnings)) for (const w of warnings) if (typeof w === 'string') req.onWarning?.(w);
    return {
      event,
      dialect: dialect.name,
      session_id: sessionId,
      dispatch_id: dispatchId,
      ...rest,
    } as FireResult;
  } finally {
    await ledger.close();
    // After the ledger is complete: the export can only add a warning.
    if (telemetry !== undefined) {
      for (const w of await telemetry.finish({ verdict, failed: verdict === 'failed' })) req.onWarning?.(w);
    }
  }
}

/** The exit code of a finished fire (SPEC §6): the dispatching dialect's reading of its verdict. */
export function fireExitCode(r: FireResult): number {
  return dialectNamed(r.dialect)!.exitCode(r);
}
