// The `hooks fire` use case: parse the payload, load the event's dialect, refuse on declaration
// errors, then dispatch (compozy §3 or cosh §4) with the real executor and record every run.
// The command only parses flags and formats what this returns.
import { randomUUID } from 'node:crypto';
import { loadCatalog, declarationsForEvent } from './catalog.js';
import type { Diagnostic } from './declarations/diagnostics.js';
import type { Dialect, OrderedDeclaration } from './declarations/model.js';
import { ExitCode, HookctlError } from './errors.js';
import type { Executor } from './exec/types.js';
import { compozyEvent, REMOVED_LEGACY_EVENTS } from './events/compozy.js';
import { coshEvent } from './events/cosh.js';
import { assertSessionId } from './ledger/ids.js';
import type { RunRecord } from './ledger/record.js';
import { hookRunsFile, type Locations } from './paths.js';
import { otlpExportConfig } from './telemetry/config.js';
import type { RunObserver } from './telemetry/observer.js';
import { displayPath } from './views/location.js';

export type Payload = Record<string, unknown>;

export interface FireRequest {
  event: string;
  /** Raw payload text; undefined or white space = `{}`. */
  payloadText: string | undefined;
  sessionId?: string;
  loc: Locations;
  env: NodeJS.ProcessEnv;
  /** Called as each run is recorded (for `-o jsonl` streaming). */
  onRecord?: (r: RunRecord) => void;
  onNotification?: (n: unknown) => void;
  /** Problems that change nothing in the result (an OpenTelemetry collector that is down). */
  onWarning?: (text: string) => void;
  /** hookctl's version (the exported telemetry's instrumentation scope). */
  version?: string;
}

export interface FireResult {
  event: string;
  dialect: Dialect;
  session_id: string;
  dispatch_id: string;
  verdict: string;
  deny_reason: string | null;
  error: string | null;
  payload: Payload;
  runs: RunRecord[];
  async_queued: number;
  /** cosh only. */
  reason?: string | null;
  system_message?: string | null;
  additional_context?: string | null;
  notifications?: unknown[];
}

export interface DryRunResult {
  event: string;
  dialect: Dialect;
  plan: {
    name: string | null;
    source: string;
    mode: string;
    order: number | null;
    matched: boolean;
    fields: { field: string; pattern: unknown; value: unknown; matched: boolean }[];
    /** `active`, or why the declaration never runs (`disabled`, `blocked`, `overridden`, …). */
    status: string;
    why?: string;
  }[];
}

/** Which dialect an event belongs to; unknown events are a usage error (exit 2). */
export function dialectOfEvent(event: string): Dialect {
  if (compozyEvent(event)) return 'compozy';
  if (coshEvent(event)) return 'cosh';
  const replacement = REMOVED_LEGACY_EVENTS[event];
  if (replacement) {
    throw new HookctlError('unknown_event', `hook event "${event}" was removed; use "${replacement}"`, ExitCode.usage);
  }
  throw new HookctlError('unknown_event', `unknown event "${event}" (see: hookctl hooks events)`, ExitCode.usage);
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

async function loadDispatchable(req: FireRequest, dialect: Dialect) {
  const catalog = await loadCatalog(req.loc, { dialect, env: req.env });
  const errors = catalog.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw declarationErrors(req.event, errors);
  return catalog;
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

export async function planFire(req: FireRequest): Promise<DryRunResult> {
  const dialect = dialectOfEvent(req.event);
  const payload = parsePayload(req.payloadText);
  // Every declaration of the event, those that never run (disabled, blocked, overridden) included:
  // each shows why it does not match.
  const declarations = (await loadDispatchable(req, dialect)).declarations.filter((d) => d.event === req.event);
  if (dialect === 'compozy') {
    const [{ planDispatch }, { payloadType }] = await Promise.all([
      import('./dispatch/compozy.js'),
      import('./events/compozy-types.js'),
    ]);
    const event = compozyEvent(req.event)!;
    // Matchers see the payload fire would dispatch (e.g. `workspace_root` reads the filled workspace).
    const filled = fillCompozyBase(payload, payloadType(event.payload)?.fields ?? {}, {
      event: req.event,
      sessionId: req.sessionId ?? (typeof payload.session_id === 'string' ? payload.session_id : undefined),
      workspace: req.loc.workspace,
    });
    const plan = planDispatch(event, filled, declarations);
    return { event: req.event, dialect, plan: plan.map((entry, i) => ({ ...entry, ...planStatus(declarations[i]!) })) };
  }
  const { coshMatcherMatches } = await import('./matching/cosh-matcher.js');
  const applies = coshEvent(req.event)!.tool_matcher;
  return {
    event: req.event,
    dialect,
    plan: declarations.map((d) => {
      const pattern = typeof d.matcher.tool_name === 'string' ? d.matcher.tool_name : undefined;
      const fields =
        applies && pattern !== undefined
          ? [
              {
                field: 'tool_name',
                pattern,
                value: payload.tool_name,
                matched: coshMatcherMatches(pattern, payload.tool_name),
              },
            ]
          : [];
      return {
        name: d.name,
        source: d.source,
        mode: d.mode,
        order: d.order,
        matched: d.status === 'active' && d.enabled && fields.every((f) => f.matched),
        fields,
        ...planStatus(d),
      };
    }),
  };
}

/** `active`, or why a declaration never runs, whatever its matcher says. */
function planStatus(d: OrderedDeclaration): { status: string; why?: string } {
  const status = d.status === 'active' && !d.enabled ? 'disabled' : d.status;
  return d.why !== undefined ? { status, why: d.why } : { status };
}

export async function fire(request: FireRequest): Promise<FireResult> {
  // A plain copy: every read of process.env is a call into the C environment, and every hook's
  // environment is built from it.
  const req: FireRequest = { ...request, env: { ...request.env } };
  const dialect = dialectOfEvent(req.event);
  const input = parsePayload(req.payloadText);
  const declarations = declarationsForEvent(await loadDispatchable(req, dialect), req.event);
  const sessionId = assertSessionId(
    req.sessionId ??
      (typeof input.session_id === 'string' && input.session_id !== '' ? input.session_id : newSessionId()),
  );
  const dispatchId = `d_${randomUUID().replaceAll('-', '').slice(0, 16)}`;

  const [{ runSubprocess }, { LedgerWriter }, { dispatchDepthFromEnv }] = await Promise.all([
    import('./exec/subprocess.js'),
    import('./ledger/writer.js'),
    import('./exec/environment.js'),
  ]);
  const depth = dispatchDepthFromEnv(req.env) + 1;
  // Records are appended in the order runs end, each with one write on a file kept open for the
  // dispatch: concurrent `hooks fire` processes on one session never tear each other's lines.
  const ledger = new LedgerWriter(hookRunsFile(req.loc, dialect, sessionId));
  // OpenTelemetry (SPEC §9): its packages load only when an endpoint is set.
  const exportConfig = otlpExportConfig(req.env);
  const telemetry =
    exportConfig === undefined
      ? undefined
      : (await import('./telemetry/fire-export.js')).startFireExport({
          config: exportConfig,
          env: req.env,
          payload: input,
          facts: { dispatchId, sessionId, event: req.event, dialect },
          version: req.version ?? '0.0.0',
        });
  const onRecord = (r: RunRecord) => {
    req.onRecord?.(r);
    telemetry?.onRecord(r);
    return ledger.append(r);
  };
  let result: FireResult | undefined;
  try {
    result = await dispatchDialect(req, dialect, input, declarations, {
      sessionId,
      dispatchId,
      depth,
      onRecord,
      runSubprocess,
      observer: telemetry,
    });
    return result;
  } finally {
    await ledger.close();
    // After the ledger is complete: the export can only add a warning.
    if (telemetry !== undefined) {
      const verdict = result?.verdict ?? 'failed';
      for (const w of await telemetry.finish({ verdict, failed: verdict === 'failed' })) req.onWarning?.(w);
    }
  }
}

interface DispatchContext {
  sessionId: string;
  dispatchId: string;
  depth: number;
  onRecord: (r: RunRecord) => Promise<void>;
  runSubprocess: Executor;
  observer?: RunObserver;
}

async function dispatchDialect(
  req: FireRequest,
  dialect: Dialect,
  input: Payload,
  declarations: OrderedDeclaration[],
  { sessionId, dispatchId, depth, onRecord, runSubprocess, observer }: DispatchContext,
): Promise<FireResult> {
  if (dialect === 'compozy') {
    const [{ dispatchCompozy }, { payloadType }] = await Promise.all([
      import('./dispatch/compozy.js'),
      import('./events/compozy-types.js'),
    ]);
    const event = compozyEvent(req.event)!;
    const payload = fillCompozyBase(input, payloadType(event.payload)?.fields ?? {}, {
      event: req.event,
      sessionId,
      workspace: req.loc.workspace,
    });
    const result = await dispatchCompozy({
      event,
      payload,
      declarations,
      executor: runSubprocess,
      depth,
      sessionId,
      dispatchId,
      invokingEnv: req.env,
      onRecord,
      observer,
    });
    return {
      event: req.event,
      dialect,
      session_id: sessionId,
      dispatch_id: dispatchId,
      verdict: result.verdict,
      deny_reason: result.deny_reason,
      error: result.error,
      payload: result.payload,
      runs: result.runs,
      async_queued: result.async_queued,
    };
  }

  const { dispatchCosh, fillCoshPayload } = await import('./dispatch/cosh.js');
  const payload = fillCoshPayload(input, {
    event: req.event,
    sessionId,
    workspace: req.loc.workspace,
    coshHome: req.loc.coshHome,
    now: new Date(),
  });
  const result = await dispatchCosh({
    event: req.event,
    payload,
    declarations,
    executor: runSubprocess,
    sessionId,
    dispatchId,
    depth,
    invokingEnv: req.env,
    workspace: req.loc.workspace,
    coshHome: req.loc.coshHome,
    onRecord,
    onNotification: req.onNotification,
    observer,
  });
  return {
    event: req.event,
    dialect,
    session_id: sessionId,
    dispatch_id: dispatchId,
    verdict: result.verdict,
    deny_reason: null,
    error: null,
    payload: result.payload,
    runs: result.runs,
    async_queued: 0,
    reason: result.reason,
    system_message: result.system_message,
    additional_context: result.additional_context,
    notifications: result.notifications,
  };
}

/** The exit code of a finished fire (SPEC §6). */
export function fireExitCode(r: FireResult): number {
  switch (r.verdict) {
    case 'denied':
    case 'block':
      return ExitCode.no;
    case 'failed':
      return ExitCode.dispatchFailed;
    case 'ask':
      return ExitCode.ask;
    default:
      return ExitCode.ok;
  }
}

/**
 * Base fields a runtime always sets (`event`, `timestamp`, `session_id`, `workspace`), filled only
 * when the caller left them out and only where the event's payload type has the field: a hook
 * must never see a field its runtime would not send (automation payloads have none of these).
 */
export function fillCompozyBase(
  payload: Payload,
  payloadFields: Record<string, string>,
  base: { event: string; sessionId?: string; workspace: string; now?: Date },
): Payload {
  const out: Payload = { ...payload };
  const fill = (field: string, value: unknown) => {
    if (out[field] === undefined && value !== undefined && Object.hasOwn(payloadFields, field)) out[field] = value;
  };
  fill('event', base.event);
  fill('timestamp', (base.now ?? new Date()).toISOString());
  fill('session_id', base.sessionId);
  fill('workspace', base.workspace);
  return out;
}

function newSessionId(): string {
  return `s_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
}
