// The `hooks replay` use case (spec replay.md): find the inputs (the workspace's Claude Code
// transcripts, event files, folders of them), rebuild the events the runtime fired, and fire
// each through the same engine as `hooks fire` (loadEventCatalog / fireLoaded / planLoaded) in a
// sandbox: a temporary state dir whose ledger is deleted at the end, no export, HOOKCTL_REPLAY=1
// for every hook. Then compare each new verdict with the old one (src/replay/compare.ts).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { Diagnostic } from '../declarations/diagnostics.js';
import type { OrderedDeclaration } from '../declarations/model.js';
import { dialectNamed, dialects } from '../dialects/registry.js';
import type { Dialect, DialectCatalog } from '../dialects/types.js';
import { ExitCode, HookctlError, usageError } from '../errors.js';
import { parseSince, readAllRecords } from '../ledger/reader.js';
import { isValidPattern, hasWildcard, pathMatch } from '../matching/pathmatch.js';
import type { Locations } from '../paths.js';
import { displayPath } from '../display-path.js';
import { changeOf, firingDiff, type ChangeKind, type FailOn } from '../replay/compare.js';
import { readEventFile } from '../replay/event-file.js';
import type { InputReport, OldDecision, ReadFile, ReplayEvent } from '../replay/model.js';
import { PAYLOADS_FILE, readPayloadLog } from '../replay/payload-log.js';
import { redactText } from '../replay/redact.js';
import {
  allProjectDirs,
  claudeConfigDir,
  folderTranscripts,
  mainOfSubagent,
  sniffKind,
  workspaceProjectDir,
} from '../replay/sources.js';
import {
  readTranscript,
  rebuildSession,
  sessionIdOf,
  TRANSCRIPT_DIALECT,
  type TranscriptFile,
} from '../replay/transcript.js';
import {
  assertDispatchable,
  candidatesFor,
  chooseDialect,
  declarationsOf,
  fireLoaded,
  planLoaded,
  type EventCatalog,
} from './fire.js';
import { eventPatternWarning } from './event-names.js';

export type SourceKind = 'transcript' | 'events' | 'payloads';

export interface ReplayRequest {
  paths: string[];
  allProjects?: boolean;
  /** `--ledger`: hookctl's payload logs too (alone when no PATH is given). */
  ledger?: boolean;
  /** `--all-workspaces`: the payload-log lines of every workspace, not only this one's. */
  allWorkspaces?: boolean;
  from?: SourceKind;
  sessions?: string[];
  since?: string;
  until?: string;
  event?: string;
  tool?: string;
  sidechain?: 'include' | 'exclude' | 'only';
  last?: number;
  hooks?: string[];
  skills?: string[];
  cwdMode?: 'transcript' | 'workspace';
  dryRun?: boolean;
  allowHttp?: boolean;
  jobs?: number;
  failOn: FailOn[];
  includePayload?: boolean;
  skipInvalid?: boolean;
  dialect?: string;
  claudeVersion?: string | null;
  loc: Locations;
  env: NodeJS.ProcessEnv;
  /** Warnings for stderr (§3.1, §3.6, §4.3, §4.6). */
  onWarning: (w: string) => void;
  /** Notes for stderr: what hookctl cannot see into for the events replayed (claude's mods). */
  onNote?: (note: string) => void;
  /** `--skip-invalid`: each declaration error skipped. */
  onSkippedInvalid?: (d: Diagnostic[]) => void;
  /** Each event as it completes, in report order (jsonl streaming, progress). */
  onEvent?: (e: ReplayedEvent, done: number, total: number, changed: number) => void;
  /** The clock, for `--since 7d` and the duration. */
  now?: () => number;
}

export interface ReplayRun {
  hook_name: string;
  handler_type: string | null;
  outcome: string;
  decision: string | null;
  reason: string | null;
  duration_ms: number;
  exit_code: number | null;
  timed_out: boolean | null;
}

export interface ReplayNew {
  verdict: string | null;
  reason: string | null;
  runs: ReplayRun[];
  unevaluated: { hook: string; handler_type: string; why: string }[];
  would_run: string[] | null;
  error: string | null;
}

export interface ReplayedEvent {
  session_id: string;
  seq: number;
  event: string;
  dialect: string | null;
  label: string;
  tool_name: string | null;
  tool_use_id: string | null;
  agent_id: string | null;
  timestamp: string | null;
  source: ReplayEvent['source'];
  old: OldDecision;
  new: ReplayNew;
  change: ChangeKind | null;
  fired_now_only: string[] | null;
  fired_then_only: string[] | null;
  incomplete: boolean;
  redacted: boolean;
  payload?: Record<string, unknown>;
  /** Whether the event fails under --fail-on (not in the JSON event object). */
  failing: boolean;
}

export interface ReplaySummary {
  sessions: number;
  events: number;
  replayed: number;
  changed: number;
  failing: number;
  by_change: Record<ChangeKind, number>;
  fired_differs: number;
  unknown_old: number;
  incomplete: number;
  hook_runs: number;
  entries: { read: number; torn: number; foreign: number; skipped: number };
  duration_ms: number;
}

export interface ReplayReport {
  replay: {
    workspace: string;
    sources: string[];
    dry_run: boolean;
    allow_http: boolean;
    cwd_mode: 'transcript' | 'workspace';
    jobs: number;
    fail_on: FailOn[];
    filters: Record<string, unknown>;
    claude_version: string | null;
  };
  summary: ReplaySummary;
  inputs: InputReport[];
  events: ReplayedEvent[];
  /** Sessions in report order, each with its main source file (JUnit). */
  sessions: { session_id: string; file: string }[];
}

export const HTTP_SKIPPED_WHY = 'http hooks do not run during replay (pass --allow-http)';

/** Runs the replay. Throws HookctlError for the errors of replay.md §7. */
export async function replay(req: ReplayRequest): Promise<ReplayReport> {
  const now = req.now ?? Date.now;
  const started = now();
  const jobs = req.jobs ?? 4;
  if (!Number.isInteger(jobs) || jobs < 1) throw usageError(`--jobs must be at least 1, got ${jobs}`);
  if (req.last !== undefined && (!Number.isInteger(req.last) || req.last < 1))
    throw usageError(`--last must be at least 1, got ${req.last}`);
  const since = req.since !== undefined ? parseSince(req.since, new Date(now())).getTime() : undefined;
  const until = req.until !== undefined ? parseUntil(req.until, new Date(now())) : undefined;
  checkPattern('--tool', req.tool);
  const eventWarning = eventPatternWarning(req.event);
  if (eventWarning !== undefined) req.onWarning(eventWarning);

  const files = await readInputs(req);
  for (const f of files) for (const w of f.warnings) req.onWarning(w);
  if (files.every((f) => f.input.entries === 0))
    throw new HookctlError(
      'no_entries',
      `nothing to replay: no valid entry in ${files.length} file${files.length === 1 ? '' : 's'}`,
      ExitCode.usage,
    );
  warnForeignCwd(files, req);

  // Sessions, their events by seq; the report order: sessions by first timestamp, then file path.
  const all = files.flatMap((f) => f.events);
  for (const id of req.sessions ?? [])
    if (!all.some((e) => e.session_id === id) && !files.some((f) => f.input.session_id === id))
      throw new HookctlError('unknown_session', `no transcript or payload log for session "${id}"`, ExitCode.usage);
  const selected = filterEvents(all, req, since, until);
  if (selected.length === 0) req.onWarning(`no event matched the filters (${all.length} events read)`);
  const bySession = groupSessions(selected, files);

  const sandbox = await mkdtemp(join(tmpdir(), 'hookctl-replay-'));
  try {
    const loc: Locations = { ...req.loc, stateDir: sandbox };
    const env: NodeJS.ProcessEnv = { ...req.env, HOOKCTL_REPLAY: '1' };
    const catalogs = await loadCatalogs(selected, req, loc, env);
    // What hookctl cannot see into (claude: mods, claude.md §1.1), once per replay, not per dispatch.
    for (const note of eventNotesOf(catalogs)) (req.onNote ?? req.onWarning)(note);
    if (!req.dryRun && selected.length > 0) {
      const hookCount = countHooks(catalogs, selected, req.hooks);
      req.onWarning(
        `replay runs command hooks for real (${hookCount} hooks, up to ${selected.length} events); hooks that write files, call services or notify people will do so again. Hooks see HOOKCTL_REPLAY=1; --dry-run only matches.`,
      );
    }
    const results = new Map<ReplayEvent, ReplayedEvent>();
    const order = bySession.flatMap((s) => s.events);
    let next = 0; // the next event of `order` to hand to onEvent: completions are reported in report order
    let changed = 0;
    const flush = () => {
      while (next < order.length && results.has(order[next]!)) {
        const r = results.get(order[next]!)!;
        next++;
        if (r.change !== null) changed++;
        req.onEvent?.(r, next, order.length, changed);
      }
    };
    const queue = [...bySession];
    const worker = async () => {
      for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
        for (const ev of s.events) {
          results.set(ev, await replayOne(ev, catalogs, req, loc, env));
          flush();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(jobs, Math.max(1, bySession.length)) }, worker));
    const events = order.map((e) => results.get(e)!);
    return {
      replay: {
        workspace: req.loc.workspace,
        sources: files.map((f) => f.input.file),
        dry_run: req.dryRun === true,
        allow_http: req.allowHttp === true,
        cwd_mode: req.cwdMode ?? 'transcript',
        jobs,
        fail_on: req.failOn,
        filters: {
          session: req.sessions ?? null,
          since: req.since ?? null,
          until: req.until ?? null,
          event: req.event ?? null,
          tool: req.tool ?? null,
          sidechain: req.sidechain ?? 'include',
          last: req.last ?? null,
          hook: req.hooks ?? null,
          skill: req.skills ?? null,
        },
        claude_version: req.claudeVersion ?? dialectNamed(TRANSCRIPT_DIALECT)?.releaseLabel?.() ?? null,
      },
      summary: summarise(events, files, bySession.length, req.dryRun === true, now() - started),
      inputs: files.map((f) => f.input),
      events,
      sessions: bySession.map((s) => ({ session_id: s.id, file: s.file })),
    };
  } finally {
    await rm(sandbox, { recursive: true, force: true });
  }
}

function parseUntil(value: string, now: Date): number {
  try {
    return parseSince(value, now).getTime();
  } catch (e) {
    if (e instanceof HookctlError) throw usageError(e.message.replace('--since', '--until'));
    throw e;
  }
}

function checkPattern(flag: string, pattern: string | undefined): void {
  if (pattern !== undefined && !isValidPattern(pattern))
    throw usageError(`invalid ${flag} pattern "${pattern}": syntax error in pattern`);
}

function matches(pattern: string | undefined, value: string | null): boolean {
  if (pattern === undefined) return true;
  if (value === null) return false;
  return hasWildcard(pattern) ? pathMatch(pattern, value) : pattern === value;
}

/** §4.6: the events reported and dispatched. */
function filterEvents(
  all: ReplayEvent[],
  req: ReplayRequest,
  since: number | undefined,
  until: number | undefined,
): ReplayEvent[] {
  const sessions = req.sessions && req.sessions.length > 0 ? new Set(req.sessions) : undefined;
  const side = req.sidechain ?? 'include';
  const kept = all.filter((e) => {
    if (sessions && !sessions.has(e.session_id)) return false;
    if (since !== undefined || until !== undefined) {
      const t = e.timestamp !== null ? Date.parse(e.timestamp) : NaN;
      if (Number.isNaN(t)) return false;
      if (since !== undefined && t < since) return false;
      if (until !== undefined && t > until) return false;
    }
    if (!matches(req.event, e.event)) return false;
    if (req.tool !== undefined && !matches(req.tool, e.tool_name)) return false;
    if (side === 'exclude' && e.sidechain) return false;
    if (side === 'only' && !e.sidechain) return false;
    return true;
  });
  if (req.last === undefined || kept.length <= req.last) return kept;
  // The last N in time: the report order of every kept event, then its tail.
  const ordered = groupSessions(kept, []).flatMap((s) => s.events);
  const tail = new Set(ordered.slice(-req.last));
  return kept.filter((e) => tail.has(e));
}

interface SessionGroup {
  id: string;
  file: string;
  events: ReplayEvent[];
}

/** §4.5: sessions by their first event's timestamp (then file path), events by seq. */
function groupSessions(events: ReplayEvent[], files: ReadFile[]): SessionGroup[] {
  const map = new Map<string, SessionGroup>();
  for (const e of events) {
    let g = map.get(e.session_id);
    if (!g) map.set(e.session_id, (g = { id: e.session_id, file: e.source.file, events: [] }));
    g.events.push(e);
  }
  const mainFile = (id: string) =>
    files.find((f) => f.input.session_id === id && f.input.kind !== 'subagent_transcript')?.input.file;
  const groups = [...map.values()];
  for (const g of groups) {
    g.events.sort((a, b) => a.seq - b.seq);
    g.file = mainFile(g.id) ?? g.events[0]!.source.file;
  }
  const first = (g: SessionGroup) => {
    const t = g.events.find((e) => e.timestamp !== null)?.timestamp;
    const ms = t ? Date.parse(t) : NaN;
    return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
  };
  return groups.sort(
    (a, b) => first(a) - first(b) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || (a.id < b.id ? -1 : 1),
  );
}

// ---- inputs ----

async function readInputs(req: ReplayRequest): Promise<ReadFile[]> {
  const transcripts: string[] = [];
  const eventFiles: string[] = [];
  const payloadLogs: string[] = [];
  if (req.ledger) {
    payloadLogs.push(...findPayloadLogs(req));
    if (req.paths.length === 0 && payloadLogs.length === 0)
      throw new HookctlError(
        'no_payloads',
        'no recorded payloads (record them with HOOKCTL_RECORD_PAYLOADS=1 or hooks fire --record-payload)',
        ExitCode.usage,
      );
  }
  if (req.paths.length === 0 && !req.ledger) {
    const folders = req.allProjects ? allProjectDirs(req.env) : [];
    if (!req.allProjects) {
      const found = workspaceProjectDir(req.loc.workspace, req.env);
      if (found.dir === undefined || folderTranscripts(found.dir).main.length === 0)
        throw new HookctlError(
          'no_transcripts',
          `no Claude Code transcripts for ${req.loc.workspace} (looked in ${displayPath(found.looked)})`,
          ExitCode.usage,
        );
      folders.push(found.dir);
    }
    for (const dir of folders) transcripts.push(...transcriptsOf(dir));
    if (transcripts.length === 0)
      throw new HookctlError(
        'no_transcripts',
        `no Claude Code transcripts for ${req.loc.workspace} (looked in ${displayPath(join(claudeConfigDir(req.env), 'projects'))})`,
        ExitCode.usage,
      );
  }
  for (const p of req.paths) {
    const path = resolve(p);
    if (!existsSync(path)) throw new HookctlError('path_not_found', `${p} does not exist`, ExitCode.usage);
    if (statSync(path).isDirectory()) {
      const inDir = transcriptsOf(path);
      if (inDir.length === 0)
        throw new HookctlError('no_transcripts', `no transcripts in ${displayPath(path)}`, ExitCode.usage);
      for (const f of inDir) await sortFile(f, req.from, transcripts, eventFiles, payloadLogs);
    } else await sortFile(path, req.from, transcripts, eventFiles, payloadLogs);
  }
  const out: ReadFile[] = [];
  out.push(...(await readTranscripts([...new Set(transcripts)])));
  const knows = (event: string, dialect: string | null) =>
    dialect === null ? dialects().some((d) => d.hasEvent(event)) : (dialectNamed(dialect)?.hasEvent(event) ?? false);
  for (const f of [...new Set(eventFiles)]) out.push(await readEventFile(f, { knows }));
  for (const f of [...new Set(payloadLogs)]) out.push(await readPayloadLogFile(f, req));
  return out;
}

/** The payload logs of every dialect's sessions folder (replay.md §2.2, `--ledger`). */
function findPayloadLogs(req: ReplayRequest): string[] {
  const out: string[] = [];
  const only = req.dialect !== undefined ? dialectNamed(req.dialect) : undefined;
  for (const d of dialects()) {
    if (only !== undefined && d !== only) continue;
    const dir = d.sessionsDir(req.loc);
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue; // no sessions folder: nothing recorded for that dialect
    }
    for (const n of names) {
      const file = join(dir, n, PAYLOADS_FILE);
      if (existsSync(file)) out.push(file);
    }
  }
  return out;
}

/** A payload log, with the hooks that ran then from the run records beside it. */
async function readPayloadLogFile(file: string, req: ReplayRequest): Promise<ReadFile> {
  const { records } = await readAllRecords(join(dirname(file), 'hook-runs.jsonl'));
  const byDispatch = new Map<string, string[]>();
  for (const r of records) {
    if (r.outcome === 'skipped') continue;
    const list = byDispatch.get(r.dispatch_id) ?? [];
    if (!list.includes(r.hook_name)) list.push(r.hook_name);
    byDispatch.set(r.dispatch_id, list);
  }
  const ws = req.loc.workspace;
  return readPayloadLog(
    file,
    (id) => byDispatch.get(id) ?? [],
    (line) =>
      (req.allWorkspaces === true || !req.ledger || line.workspace === ws) &&
      (req.dialect === undefined || line.dialect === req.dialect),
  );
}

async function sortFile(
  file: string,
  from: SourceKind | undefined,
  transcripts: string[],
  events: string[],
  payloads: string[],
) {
  const kind = from ?? (await sniffKind(file));
  if (kind === 'events') events.push(file);
  else if (kind === 'payloads') payloads.push(file);
  else transcripts.push(file);
}

/** A folder's transcripts: its main files, their subagent files, and flat agent files. */
function transcriptsOf(dir: string): string[] {
  const t = folderTranscripts(dir);
  return [...t.main, ...[...t.subagents.values()].flat(), ...t.flatAgents];
}

/** Groups transcript files into Claude Code sessions and rebuilds each (replay.md §2.1, §3). */
async function readTranscripts(paths: string[]): Promise<ReadFile[]> {
  const isAgent = (p: string) => basename(p).startsWith('agent-');
  const mains = paths.filter((p) => !isAgent(p));
  const agents = paths.filter(isAgent);
  const read = new Map<string, TranscriptFile>();
  for (const p of paths) read.set(p, await readTranscript(p, isAgent(p) ? 'subagent_transcript' : 'transcript'));
  const sessions = new Map<string, { main?: TranscriptFile; subagents: TranscriptFile[]; id: string; path: string }>();
  for (const m of mains) {
    const file = read.get(m)!;
    const id = sessionIdOf(file) ?? basename(m, '.jsonl');
    sessions.set(m, { main: file, subagents: [], id, path: m });
  }
  for (const a of agents) {
    const file = read.get(a)!;
    const byPlace = mainOfSubagent(a);
    const id = sessionIdOf(file);
    const owner =
      (byPlace !== undefined ? sessions.get(byPlace) : undefined) ??
      [...sessions.values()].find((s) => s.main !== undefined && id !== null && s.id === id);
    if (owner) owner.subagents.push(file);
    else {
      // A subagent file alone: its session's main transcript is where Claude Code keeps it.
      const main = byPlace ?? a;
      const key = `agent\0${id ?? main}`;
      const s = sessions.get(key) ?? { subagents: [], id: id ?? basename(a, '.jsonl'), path: main };
      s.subagents.push(file);
      sessions.set(key, s);
    }
  }
  // The payload fields of the followed release's catalog (permission_mode is on some events only).
  const claude = dialectNamed(TRANSCRIPT_DIALECT);
  const fields = (event: string) => {
    const row = claude?.eventRows().find((r) => r.event === event);
    return Array.isArray(row?.payload_fields) ? (row.payload_fields as string[]) : undefined;
  };
  const out: ReadFile[] = [];
  for (const s of sessions.values()) {
    out.push(
      ...(await rebuildSession(
        { main: s.main, subagents: s.subagents, sessionId: s.id, transcriptPath: s.path },
        { payloadFields: fields },
      )),
    );
  }
  return out;
}

/** §3.6: one warning per transcript recorded outside the workspace. */
function warnForeignCwd(files: ReadFile[], req: ReplayRequest): void {
  const ws = req.loc.workspace;
  for (const f of files) {
    const cwd = f.input.cwd;
    if (cwd === null || f.input.kind === 'events') continue;
    if (cwd === ws || cwd.startsWith(ws.endsWith('/') ? ws : ws + '/')) continue;
    req.onWarning(`${displayPath(f.input.file)}: recorded in ${cwd}, replayed against the hooks of ${ws}`);
  }
}

// ---- dispatch ----

interface Catalogs {
  /** By `<dialect>\0<event>` (dialect '' when chosen as fire chooses). */
  byEvent: Map<string, EventCatalog>;
}

const keyOf = (e: ReplayEvent) => `${e.dialect ?? ''}\0${e.event}`;

/** Each dialect's notes about the events it will answer, asked once for all of them. */
function eventNotesOf(catalogs: Catalogs): string[] {
  const byDialect = new Map<Dialect, { context: unknown; events: Set<string> }>();
  for (const c of catalogs.byEvent.values()) {
    let entry = byDialect.get(c.dialect);
    if (entry === undefined) byDialect.set(c.dialect, (entry = { context: c.catalog.context, events: new Set() }));
    entry.events.add(c.event);
  }
  return [...byDialect].flatMap(([d, e]) => d.eventNotes?.(e.context, [...e.events]).notes ?? []);
}

/**
 * The catalogs of every event to replay, loaded once per dialect, before anything runs: an
 * ambiguous event or a dialect with declaration errors stops the replay here (§2.3, §7).
 */
async function loadCatalogs(
  events: ReplayEvent[],
  req: ReplayRequest,
  loc: Locations,
  env: NodeJS.ProcessEnv,
): Promise<Catalogs> {
  const loads = new Map<Dialect, Promise<DialectCatalog>>();
  const load = (d: Dialect) => {
    let p = loads.get(d);
    if (!p) loads.set(d, (p = d.loadCatalog(loc, env)));
    return p;
  };
  const byEvent = new Map<string, EventCatalog>();
  const checked = new Set<Dialect>();
  for (const e of events) {
    const key = keyOf(e);
    if (byEvent.has(key)) continue;
    const dialect = e.dialect ?? req.dialect;
    let candidates: readonly Dialect[];
    try {
      candidates = candidatesFor(e.event, dialect);
    } catch {
      continue; // an event this release does not know: new.error says so at dispatch
    }
    const chosen = await chooseDialect(candidates, e.event, load);
    const loaded: EventCatalog = {
      event: e.event,
      dialect: chosen.dialect,
      catalog: chosen.catalog ?? (await load(chosen.dialect)),
    };
    if (!req.dryRun && !checked.has(chosen.dialect)) {
      checked.add(chosen.dialect);
      assertDispatchable(loaded, req.skipInvalid ? (req.onSkippedInvalid ?? (() => undefined)) : undefined);
    }
    byEvent.set(key, loaded);
  }
  return { byEvent };
}

/** How many active command-like hooks the replayed events may run (the side-effect warning). */
function countHooks(c: Catalogs, events: ReplayEvent[], hooks: string[] | undefined): number {
  const seen = new Set<OrderedDeclaration>();
  const keys = new Set(events.map(keyOf));
  for (const k of keys) {
    const loaded = c.byEvent.get(k);
    if (!loaded) continue;
    for (const d of declarationsOf(loaded.catalog, loaded.event))
      if (d.status === 'active' && (hooks === undefined || (d.name !== null && hooks.includes(d.name)))) seen.add(d);
  }
  return seen.size;
}

/** A hook's command text (§5): its `command` as written, an http hook's `url`. */
function commandText(d: OrderedDeclaration | undefined): string | undefined {
  if (d === undefined) return undefined;
  const url = d.extra?.url;
  if (typeof url === 'string') return url;
  const raw = d.extra?.command;
  return typeof raw === 'string' ? raw : d.command;
}

async function replayOne(
  ev: ReplayEvent,
  c: Catalogs,
  req: ReplayRequest,
  loc: Locations,
  env: NodeJS.ProcessEnv,
): Promise<ReplayedEvent> {
  const payload = req.cwdMode === 'workspace' ? toWorkspace(ev.payload, req.loc.workspace) : ev.payload;
  const loaded = c.byEvent.get(keyOf(ev));
  const skills = [...(req.skills ?? []), ...ev.skills];
  const options: Record<string, unknown> = {
    ...(skills.length > 0 ? { skills, skillFolders: true } : {}),
    ...(req.allowHttp ? {} : { httpSkippedWhy: HTTP_SKIPPED_WHY }),
  };
  const fresh: ReplayNew = { verdict: null, reason: null, runs: [], unevaluated: [], would_run: null, error: null };
  let neu: ReplayNew;
  let commandsNow: string[] = [];
  let namesNow: string[] = [];
  if (loaded === undefined) {
    neu = { ...fresh, error: `unknown event "${ev.event}" for the followed release` };
  } else {
    const decls = declarationsOf(loaded.catalog, loaded.event);
    const byName = new Map(decls.filter((d) => d.name !== null).map((d) => [d.name!, d]));
    try {
      if (req.dryRun) {
        const plan = await planLoaded(loaded, {
          payload,
          loc,
          env,
          sessionId: ev.session_id,
          options,
          ...(req.hooks ? { hooks: req.hooks } : {}),
        });
        const would = plan.plan.filter((p) => p.matched && p.status === 'active').map((p) => p.name ?? '');
        neu = { ...fresh, would_run: would };
        commandsNow = would.map((n) => commandText(byName.get(n)) ?? n);
        namesNow = would;
      } else {
        const result = await fireLoaded(loaded, {
          payload,
          loc,
          env,
          sessionId: ev.session_id,
          sessionsDir: loaded.dialect.sessionsDir(loc),
          options,
          ...(req.hooks ? { hooks: req.hooks } : {}),
        });
        const r = result as unknown as Record<string, unknown>;
        const records = Array.isArray(r.runs) ? (r.runs as Record<string, unknown>[]) : [];
        const runs: ReplayRun[] = records.map((x) => ({
          hook_name: String(x.hook_name ?? ''),
          handler_type: byName.get(String(x.hook_name))?.executor_kind ?? null,
          outcome: String(x.outcome ?? ''),
          decision: typeof x.decision === 'string' ? x.decision : null,
          reason: typeof x.reason === 'string' ? x.reason : null,
          duration_ms: typeof x.duration_ms === 'number' ? x.duration_ms : 0,
          exit_code: typeof x.exit_code === 'number' ? x.exit_code : null,
          timed_out: typeof x.timed_out === 'boolean' ? x.timed_out : null,
        }));
        const unevaluated = Array.isArray(r.unevaluated) ? (r.unevaluated as ReplayNew['unevaluated']) : [];
        for (const x of records)
          if (x.outcome === 'skipped' && x.why === HTTP_SKIPPED_WHY)
            unevaluated.push({ hook: String(x.hook_name), handler_type: 'http', why: HTTP_SKIPPED_WHY });
        neu = {
          verdict: result.verdict,
          reason: typeof r.reason === 'string' ? r.reason : null,
          runs,
          unevaluated,
          would_run: null,
          error: typeof r.error === 'string' ? r.error : null,
        };
        commandsNow = runs
          .filter((x) => x.outcome !== 'skipped')
          .map((x) => commandText(byName.get(x.hook_name)) ?? x.hook_name);
        namesNow = runs.filter((x) => x.outcome !== 'skipped').map((x) => x.hook_name);
      }
    } catch (e) {
      if (!(e instanceof HookctlError)) throw e;
      neu = { ...fresh, error: e.message };
    }
  }
  const change = changeOf(ev.old.verdict, neu.verdict);
  const diff = firingDiff(ev.old.hooks, ev.hooksByName ? namesNow : commandsNow);
  const failing =
    (change !== null && req.failOn.includes(change)) ||
    (req.failOn.includes('fired') &&
      ((diff.fired_now_only?.length ?? 0) > 0 || (diff.fired_then_only?.length ?? 0) > 0));
  return {
    session_id: ev.session_id,
    seq: ev.seq,
    event: ev.event,
    dialect: loaded?.dialect.name ?? ev.dialect,
    label: labelOf(ev),
    tool_name: ev.tool_name,
    tool_use_id: ev.tool_use_id,
    agent_id: ev.agent_id,
    timestamp: ev.timestamp,
    source: ev.source,
    old: ev.old,
    new: neu,
    change,
    ...diff,
    incomplete: neu.unevaluated.length > 0,
    redacted: ev.redacted === true,
    ...(req.includePayload ? { payload } : {}),
    failing,
  };
}

/** §3.6 `--cwd workspace`: cwd is the workspace, and paths under the recorded cwd move with it. */
function toWorkspace(payload: Record<string, unknown>, workspace: string): Record<string, unknown> {
  const cwd = typeof payload.cwd === 'string' ? payload.cwd : undefined;
  const out: Record<string, unknown> = { ...payload, cwd: workspace };
  if (cwd === undefined || cwd === workspace) return out;
  const input = payload.tool_input;
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
    const moved: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    for (const k of ['file_path', 'notebook_path', 'path']) {
      const v = moved[k];
      if (typeof v !== 'string') continue;
      if (v === cwd) moved[k] = workspace;
      else if (v.startsWith(cwd + '/')) moved[k] = workspace + v.slice(cwd.length);
    }
    out.tool_input = moved;
  }
  return out;
}

const LABEL_MAX = 120;

/** §6.1's label: one line for people, redacted, cut to 120 characters. */
export function labelOf(ev: ReplayEvent): string {
  let text: string;
  const p = ev.payload;
  if (ev.tool_name !== null) {
    const input = (p.tool_input ?? {}) as Record<string, unknown>;
    const detail = ['command', 'file_path', 'notebook_path', 'pattern', 'url', 'query', 'description']
      .map((k) => input[k])
      .find((v): v is string => typeof v === 'string' && v !== '');
    text = detail !== undefined ? `${ev.tool_name}: ${detail}` : ev.tool_name;
  } else if (typeof p.prompt === 'string') text = p.prompt;
  else if (ev.event === 'SessionStart' && typeof p.source === 'string') text = p.source;
  else if (typeof p.agent_type === 'string') text = p.agent_type;
  else text = ev.event;
  const line = redactText(text.split(/\r?\n/)[0] ?? '');
  const units = [...line];
  return units.length > LABEL_MAX ? units.slice(0, LABEL_MAX - 1).join('') + '…' : line;
}

function summarise(
  events: ReplayedEvent[],
  files: ReadFile[],
  sessions: number,
  dryRun: boolean,
  duration: number,
): ReplaySummary {
  const by: Record<ChangeKind, number> = { blocks: 0, asks: 0, allows: 0, differs: 0 };
  for (const e of events) if (e.change !== null) by[e.change]++;
  const entries = { read: 0, torn: 0, foreign: 0, skipped: 0 };
  for (const f of files) {
    entries.read += f.input.entries;
    entries.torn += f.input.torn;
    entries.foreign += f.input.foreign;
    entries.skipped += Object.values(f.input.skipped).reduce((a, b) => a + b, 0);
  }
  return {
    sessions,
    events: events.length,
    replayed: dryRun ? 0 : events.filter((e) => e.new.error === null || e.new.verdict !== null).length,
    changed: events.filter((e) => e.change !== null).length,
    failing: events.filter((e) => e.failing).length,
    by_change: by,
    fired_differs: events.filter((e) => (e.fired_now_only?.length ?? 0) > 0 || (e.fired_then_only?.length ?? 0) > 0)
      .length,
    unknown_old: events.filter((e) => e.old.verdict === 'unknown').length,
    incomplete: events.filter((e) => e.incomplete).length,
    hook_runs: events.reduce((n, e) => n + e.new.runs.filter((r) => r.outcome !== 'skipped').length, 0),
    entries,
    duration_ms: Math.round(duration),
  };
}

/** §7: 1 when an event fails, else 0. */
export function replayExitCode(r: ReplayReport): number {
  return r.summary.failing > 0 ? ExitCode.no : ExitCode.ok;
}
