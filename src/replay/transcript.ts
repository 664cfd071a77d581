// Rebuilding Claude Code events from transcripts (replay.md §3): the lines of a main transcript
// and of its subagent transcripts become the events Claude Code fired, with the common fields
// it sends and what happened to each then (its hook traces, results and system entries).
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BadLineNotes, isObject, jsonLines, type LineCounts } from './lines.js';
import type { InputKind, InputReport, OldBasis, OldDecision, ReadFile, ReplayEvent } from './model.js';

/** The dialect whose events a Claude Code transcript holds. */
export const TRANSCRIPT_DIALECT = 'claude';

type Entry = Record<string, unknown>;
interface Line {
  n: number;
  e: Entry;
}

/** The types replay reads (replay.md §3.1); any other is skipped and counted per type. */
const READ_TYPES = new Set(['user', 'assistant', 'attachment', 'progress', 'system', 'permission-mode']);
const CONVERSATION = new Set(['user', 'assistant', 'attachment', 'progress', 'system']);

export interface TranscriptFile {
  file: string;
  kind: 'transcript' | 'subagent_transcript';
  counts: LineCounts;
  entries: number;
  skipped: Record<string, number>;
  lines: Line[];
  warnings: string[];
}

/** Reads one transcript's lines: torn, foreign and skipped lines are counted, never fatal. */
export async function readTranscript(file: string, kind: TranscriptFile['kind']): Promise<TranscriptFile> {
  const counts: LineCounts = { lines: 0, torn: 0, foreign: 0 };
  const notes = new BadLineNotes(file);
  const lines: Line[] = [];
  const skipped: Record<string, number> = {};
  let entries = 0;
  for await (const { n, value } of jsonLines(file, counts, notes)) {
    if (!isObject(value) || typeof value.type !== 'string') {
      counts.foreign++;
      notes.foreign(n);
      continue;
    }
    if ((value.type === 'user' || value.type === 'assistant') && !isObject(value.message)) {
      counts.foreign++;
      notes.foreign(n);
      continue;
    }
    entries++;
    if (!READ_TYPES.has(value.type)) {
      skipped[value.type] = (skipped[value.type] ?? 0) + 1;
      continue;
    }
    lines.push({ n, e: value });
  }
  return { file, kind, counts, entries, skipped, lines, warnings: notes.all() };
}

/** What rebuilding needs from outside the files: the catalog's payload fields of an event. */
export interface RebuildOptions {
  /** The payload fields the followed release's catalog lists for an event (permission_mode, …). */
  payloadFields(event: string): readonly string[] | undefined;
}

/** One Claude Code session: its main transcript (when found) and its subagent transcripts. */
export interface TranscriptSession {
  main: TranscriptFile | undefined;
  subagents: TranscriptFile[];
  /** The session id: the entries' sessionId, else the main file's name. */
  sessionId: string;
  /** The main transcript's path, every event's transcript_path. */
  transcriptPath: string;
}

interface Built {
  ev: ReplayEvent;
  /** Sort keys: timestamp (ms), file rank (main 0), line, the order within one entry. */
  ts: number;
  rank: number;
  order: number;
}

/** Order of the events of one entry (replay.md §3.2). */
const EVENT_ORDER: Record<string, number> = {
  SessionStart: 0,
  PreCompact: 1,
  SessionStartCompact: 2,
  SubagentStart: 3,
  UserPromptSubmit: 4,
  PreToolUse: 5,
  PostToolUse: 6,
  PostToolUseFailure: 6,
  Stop: 7,
  SubagentStop: 8,
};

/**
 * The events of a session in order, numbered from 1 (replay.md §3.2), and one input report per
 * file. A tool_use id seen before makes no second event: the main transcript's wins.
 */
export async function rebuildSession(s: TranscriptSession, opts: RebuildOptions): Promise<ReadFile[]> {
  const seen = new Set<string>();
  const modes = s.main ? modeTimeline(s.main) : [];
  const out: { file: TranscriptFile; built: Built[] }[] = [];
  const files = [...(s.main ? [s.main] : []), ...s.subagents];
  for (const [rank, file] of files.entries()) {
    const agentType = file.kind === 'subagent_transcript' ? await agentTypeOf(file.file) : undefined;
    const built = rebuildFile(file, rank, s, opts, seen, modes, agentType);
    out.push({ file, built });
  }
  const all = out.flatMap((o) => o.built);
  all.sort((a, b) => a.ts - b.ts || a.rank - b.rank || a.ev.source.line - b.ev.source.line || a.order - b.order);
  all.forEach((b, i) => (b.ev.seq = i + 1));
  return out.map(({ file, built }) => ({
    input: inputReport(file, s.sessionId, firstCwd(file), built.length),
    events: built.map((b) => b.ev),
    warnings: file.warnings,
  }));
}

export function inputReport(
  file: TranscriptFile,
  sessionId: string | null,
  cwd: string | null,
  events: number,
): InputReport {
  return {
    file: file.file,
    kind: file.kind,
    session_id: sessionId,
    cwd,
    lines: file.counts.lines,
    entries: file.entries,
    torn: file.counts.torn,
    foreign: file.counts.foreign,
    skipped: file.skipped,
    events,
  };
}

export function firstCwd(file: TranscriptFile): string | null {
  for (const { e } of file.lines) if (typeof e.cwd === 'string') return e.cwd;
  return null;
}

/** The session id a transcript's entries name, else null. */
export function sessionIdOf(file: TranscriptFile): string | null {
  for (const { e } of file.lines) if (typeof e.sessionId === 'string' && e.sessionId !== '') return e.sessionId;
  return null;
}

/** `agentType` of `agent-<id>.meta.json` beside a subagent transcript; undefined when unreadable. */
async function agentTypeOf(file: string): Promise<string | undefined> {
  const meta = join(dirname(file), basename(file, '.jsonl') + '.meta.json');
  try {
    const parsed: unknown = JSON.parse(await readFile(meta, 'utf8'));
    return isObject(parsed) && typeof parsed.agentType === 'string' ? parsed.agentType : undefined;
  } catch {
    return undefined;
  }
}

/** The main transcript's permission modes over time: `permission-mode` entries and prompts' modes. */
function modeTimeline(main: TranscriptFile): { ts: number; mode: string }[] {
  const out: { ts: number; mode: string }[] = [];
  let last = -Infinity;
  for (const { e } of main.lines) {
    const ts = tsOf(e);
    if (ts !== undefined) last = ts;
    if (e.type === 'permission-mode' && typeof e.permissionMode === 'string')
      out.push({ ts: last, mode: e.permissionMode });
    else if (e.type === 'user' && typeof e.permissionMode === 'string') out.push({ ts: last, mode: e.permissionMode });
  }
  return out;
}

function tsOf(e: Entry): number | undefined {
  if (typeof e.timestamp !== 'string') return undefined;
  const t = Date.parse(e.timestamp);
  return Number.isNaN(t) ? undefined : t;
}

/** The text of a user entry: its content string, or its text blocks joined by `\n`. */
export function userText(e: Entry): string {
  const content = (e.message as Entry).content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b): b is Entry => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}

/** A tool_result's text: its content string, or its text blocks joined by `\n`. */
function resultText(block: Entry): string {
  const c = block.content;
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c
    .filter((b): b is Entry => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}

function blocksOf(e: Entry): Entry[] {
  const content = (e.message as Entry | undefined)?.content;
  return Array.isArray(content) ? content.filter(isObject) : [];
}

const COMMAND_STARTS = [
  '<command-message>',
  '<command-name>',
  '<local-command-',
  '<bash-input>',
  '<bash-stdout>',
  '<bash-stderr>',
];
const NOT_PROMPT_STARTS = [
  '[Request interrupted by user',
  'Stop hook feedback:',
  'SubagentStop hook feedback:',
  'Operation stopped by hook',
];
const BLOCKED_PROMPT = 'UserPromptSubmit operation blocked by hook:';
const ORIGINAL_PROMPT = '\n\nOriginal prompt: ';

export function isCommandEntry(e: Entry): boolean {
  if (e.type !== 'user') return false;
  const text = userText(e).trim();
  return COMMAND_STARTS.some((s) => text.startsWith(s));
}

export function isPromptEntry(e: Entry): boolean {
  if (e.type !== 'user' || e.isMeta === true || e.isCompactSummary === true || e.isVisibleInTranscriptOnly === true)
    return false;
  const content = (e.message as Entry).content;
  if (Array.isArray(content)) {
    const blocks = content.filter(isObject);
    if (!blocks.some((b) => b.type === 'text') || blocks.some((b) => b.type === 'tool_result')) return false;
  } else if (typeof content !== 'string') return false;
  if (isCommandEntry(e)) return false;
  const text = userText(e).trim();
  return !NOT_PROMPT_STARTS.some((s) => text.startsWith(s));
}

function isBlockedPromptEntry(e: Entry): boolean {
  return e.type === 'system' && typeof e.content === 'string' && e.content.startsWith(BLOCKED_PROMPT);
}

function isFeedbackEntry(e: Entry): boolean {
  return e.type === 'user' && userText(e).trim().startsWith('Stop hook feedback:');
}

function isSubagentFeedbackEntry(e: Entry): boolean {
  return e.type === 'user' && userText(e).trim().startsWith('SubagentStop hook feedback:');
}

/** The `/NAME` of a command entry's `<command-name>`, without the slash. */
function commandName(e: Entry): string | undefined {
  const m = /<command-name>\s*\/?([^<\s]+)\s*<\/command-name>/.exec(userText(e));
  return m?.[1];
}

/** A hook trace (replay.md §3.5). */
interface Trace {
  n: number;
  kind: string; // attachment.type, `hook_progress`, `stop_hook_summary`
  basis: OldBasis;
  hookEvent: string;
  toolUseId: string | undefined;
  commands: string[];
  reason: string | null;
  prevented: boolean;
  hookName: string | undefined;
}

function traceOf(n: number, e: Entry): Trace | undefined {
  if (e.type === 'attachment' && isObject(e.attachment)) {
    const a = e.attachment;
    if (typeof a.type !== 'string' || !a.type.startsWith('hook_')) return undefined;
    const be = isObject(a.blockingError) ? a.blockingError : undefined;
    const commands = [a.command, be?.command].filter((c): c is string => typeof c === 'string' && c !== '');
    const reason =
      typeof be?.blockingError === 'string'
        ? be.blockingError
        : typeof a.message === 'string'
          ? a.message
          : typeof a.stopReason === 'string'
            ? a.stopReason
            : null;
    return {
      n,
      kind: a.type,
      basis: 'attachment',
      hookEvent: typeof a.hookEvent === 'string' ? a.hookEvent : '',
      toolUseId: typeof a.toolUseID === 'string' ? a.toolUseID : undefined,
      commands,
      reason,
      prevented: false,
      hookName: typeof a.hookName === 'string' ? a.hookName : undefined,
    };
  }
  if (e.type === 'progress' && isObject(e.data) && e.data.type === 'hook_progress') {
    const d = e.data;
    return {
      n,
      kind: 'hook_progress',
      basis: 'progress',
      hookEvent: typeof d.hookEvent === 'string' ? d.hookEvent : '',
      toolUseId: typeof e.toolUseID === 'string' ? e.toolUseID : undefined,
      commands: typeof d.command === 'string' && d.command !== '' ? [d.command] : [],
      reason: null,
      prevented: false,
      hookName: typeof d.hookName === 'string' ? d.hookName : undefined,
    };
  }
  if (e.type === 'system' && e.subtype === 'stop_hook_summary') {
    const infos = Array.isArray(e.hookInfos) ? e.hookInfos.filter(isObject) : [];
    return {
      n,
      kind: 'stop_hook_summary',
      basis: 'summary',
      hookEvent: 'Stop',
      toolUseId: undefined,
      commands: infos.map((i) => i.command).filter((c): c is string => typeof c === 'string' && c !== ''),
      reason: typeof e.stopReason === 'string' ? e.stopReason : null,
      prevented: e.preventedContinuation === true,
      hookName: undefined,
    };
  }
  return undefined;
}

interface Pending {
  ev: ReplayEvent;
  n: number;
  ts: number;
  order: number;
  traces: Trace[];
  /** Rules applied once the traces are known. */
  finish?: (traces: Trace[]) => OldDecision;
}

function rebuildFile(
  file: TranscriptFile,
  rank: number,
  s: TranscriptSession,
  opts: RebuildOptions,
  seen: Set<string>,
  modes: { ts: number; mode: string }[],
  agentType: string | undefined,
): Built[] {
  const isMain = file.kind === 'transcript';
  const lines = file.lines;
  // Results of calls, denials by PermissionRequest hooks, and traces of tool events, by call id.
  const results = new Map<string, { n: number; e: Entry; block: Entry }>();
  const permissionDenied = new Set<string>();
  const toolTraces = new Map<string, Trace[]>();
  const traces: Trace[] = [];
  for (const { n, e } of lines) {
    if (e.type === 'user') {
      for (const b of blocksOf(e))
        if (b.type === 'tool_result' && typeof b.tool_use_id === 'string' && !results.has(b.tool_use_id))
          results.set(b.tool_use_id, { n, e, block: b });
    }
    const t = traceOf(n, e);
    if (t === undefined) continue;
    if (t.kind === 'hook_permission_decision') {
      const a = e.attachment as Entry;
      if (a.decision === 'deny' && t.toolUseId !== undefined) permissionDenied.add(t.toolUseId);
      continue;
    }
    traces.push(t);
    if (t.toolUseId !== undefined) {
      const key = `${t.hookEvent}\0${t.toolUseId}`;
      toolTraces.set(key, [...(toolTraces.get(key) ?? []), t]);
    }
  }

  const pending: Pending[] = [];
  let lastTs = Number.NEGATIVE_INFINITY;
  let sawConversation = false;
  let turnPrompt: Entry | undefined;
  let feedbackSinceTurn = false;
  let lastText = '';
  let sessionSource = 'startup';
  let promptSinceStart = false;
  const skills: string[] = [];
  let lastMode: string | undefined;
  const agentId = (e: Entry) => (typeof e.agentId === 'string' ? e.agentId : null);

  const common = (e: Entry, event: string): Record<string, unknown> => {
    const p: Record<string, unknown> = {
      session_id: typeof e.sessionId === 'string' && e.sessionId !== '' ? e.sessionId : s.sessionId,
      transcript_path: s.transcriptPath,
      cwd: typeof e.cwd === 'string' ? e.cwd : (firstCwd(file) ?? undefined),
      hook_event_name: event,
    };
    if (p.cwd === undefined) delete p.cwd;
    if (turnPrompt && typeof turnPrompt.promptId === 'string') p.prompt_id = turnPrompt.promptId;
    if (opts.payloadFields(event)?.includes('permission_mode')) p.permission_mode = modeAt(e);
    if (!isMain) {
      const id = agentId(e) ?? basename(file.file, '.jsonl').replace(/^agent-/, '');
      p.agent_id = id;
      if (agentType !== undefined) p.agent_type = agentType;
    }
    return p;
  };
  const modeAt = (e: Entry): string => {
    if (isMain) {
      if (turnPrompt && typeof turnPrompt.permissionMode === 'string') return turnPrompt.permissionMode;
      return lastMode ?? 'default';
    }
    const ts = tsOf(e) ?? lastTs;
    let mode = 'default';
    for (const m of modes) if (m.ts <= ts) mode = m.mode;
    return mode;
  };
  const push = (e: Entry, n: number, event: string, fields: Record<string, unknown>, order = event): Pending => {
    const payload = { ...common(e, event), ...fields };
    const p: Pending = {
      ev: {
        session_id: payload.session_id as string,
        seq: 0,
        event,
        dialect: TRANSCRIPT_DIALECT,
        tool_name: typeof fields.tool_name === 'string' ? fields.tool_name : null,
        tool_use_id: typeof fields.tool_use_id === 'string' ? fields.tool_use_id : null,
        agent_id: isMain ? null : (payload.agent_id as string),
        timestamp: typeof e.timestamp === 'string' ? e.timestamp : null,
        source: { file: file.file, line: n, kind: file.kind },
        sidechain: !isMain || e.isSidechain === true,
        payload,
        old: { verdict: 'proceeded', basis: 'transcript', reason: null, hooks: null },
        skills: [...skills],
      },
      n,
      ts: tsOf(e) ?? lastTs,
      order: EVENT_ORDER[order] ?? 9,
      traces: [],
    };
    pending.push(p);
    return p;
  };

  // The next main-chain user or assistant entry after index i.
  const nextTurnEntry = (i: number): Entry | undefined => {
    for (let j = i + 1; j < lines.length; j++) {
      const e = lines[j]!.e;
      if ((e.type === 'user' || e.type === 'assistant') && e.isSidechain !== true) return e;
    }
    return undefined;
  };
  const nextUser = (i: number): Entry | undefined => {
    for (let j = i + 1; j < lines.length; j++) if (lines[j]!.e.type === 'user') return lines[j]!.e;
    return undefined;
  };

  let lastConversation = -1;
  for (let i = 0; i < lines.length; i++) if (CONVERSATION.has(lines[i]!.e.type as string)) lastConversation = i;

  for (let i = 0; i < lines.length; i++) {
    const { n, e } = lines[i]!;
    const ts = tsOf(e);
    if (ts !== undefined) lastTs = ts;
    const mainChain = isMain && e.isSidechain !== true;
    if (e.type === 'permission-mode' && typeof e.permissionMode === 'string') {
      lastMode = e.permissionMode;
      continue;
    }
    if (!CONVERSATION.has(e.type as string)) continue;

    if (!sawConversation) {
      sawConversation = true;
      if (isMain) {
        // The first SessionStart trace before the first prompt names the source (`SessionStart:resume`).
        const firstPrompt = lines.find((l) => isPromptEntry(l.e) && l.e.isSidechain !== true)?.n ?? Infinity;
        const startTrace = traces.find(
          (t) => t.hookEvent === 'SessionStart' && t.hookName?.includes(':') && t.n < firstPrompt,
        );
        sessionSource = startTrace ? startTrace.hookName!.slice(startTrace.hookName!.indexOf(':') + 1) : 'startup';
        push(e, n, 'SessionStart', { source: sessionSource });
      } else push(e, n, 'SubagentStart', {});
    }

    const t = traceOf(n, e);
    if (isMain && t && t.hookEvent === 'SessionStart' && t.hookName?.includes(':') && pending.length > 1) {
      const source = t.hookName.slice(t.hookName.indexOf(':') + 1);
      if (source !== sessionSource || promptSinceStart) {
        sessionSource = source;
        promptSinceStart = false;
        push(e, n, 'SessionStart', { source });
      }
    }

    if (e.type === 'system' && e.subtype === 'compact_boundary') {
      const meta = isObject(e.compactMetadata) ? e.compactMetadata : {};
      push(e, n, 'PreCompact', {
        trigger: typeof meta.trigger === 'string' ? meta.trigger : 'auto',
        custom_instructions: '',
      });
      push(e, n, 'SessionStart', { source: 'compact' }, 'SessionStartCompact');
      sessionSource = 'compact';
      promptSinceStart = false;
      continue;
    }

    if (mainChain && isBlockedPromptEntry(e)) {
      const content = e.content as string;
      const cut = content.lastIndexOf(ORIGINAL_PROMPT);
      const prompt = cut >= 0 ? content.slice(cut + ORIGINAL_PROMPT.length) : '';
      const firstBreak = content.indexOf('\n');
      const reasonText = firstBreak < 0 ? '' : content.slice(firstBreak + 1, cut >= 0 ? cut : undefined);
      const cmd = /^\[([^\]]+)\]: /.exec(reasonText)?.[1];
      turnPrompt = undefined;
      const p = push(e, n, 'UserPromptSubmit', { prompt });
      p.ev.old = { verdict: 'block', basis: 'system', reason: reasonText || null, hooks: cmd ? [cmd] : null };
      p.finish = (tr) => ({ ...p.ev.old, hooks: mergeHooks(cmd ? [cmd] : [], tr) });
      continue;
    }

    if (e.type === 'user') {
      if (mainChain && isCommandEntry(e)) {
        const name = commandName(e);
        if (name !== undefined && !skills.includes(name)) skills.push(name);
        continue;
      }
      if (isFeedbackEntry(e) || isSubagentFeedbackEntry(e)) feedbackSinceTurn = true;
      if (mainChain && isPromptEntry(e)) {
        turnPrompt = e;
        feedbackSinceTurn = false;
        lastText = '';
        promptSinceStart = true;
        const prompt = userText(e);
        const p = push(e, n, 'UserPromptSubmit', { prompt });
        const next = nextUser(i);
        const stopText = next !== undefined ? userText(next).trim() : '';
        p.finish = (tr) => {
          if (stopText.startsWith('Operation stopped by hook'))
            return {
              verdict: 'stop',
              basis: 'feedback',
              reason: stopText.startsWith('Operation stopped by hook: ')
                ? stopText.slice('Operation stopped by hook: '.length)
                : null,
              hooks: mergeHooks([], tr),
            };
          return fromTraces(tr, 'block', 'transcript');
        };
      }
      // Results: PostToolUse / PostToolUseFailure at the result's entry (built with the call below).
      continue;
    }

    if (e.type === 'assistant') {
      const blocks = blocksOf(e);
      const uses = blocks.filter((b) => b.type === 'tool_use' && typeof b.id === 'string');
      for (const b of blocks) if (b.type === 'text' && typeof b.text === 'string') lastText = b.text;
      for (const use of uses) {
        const id = use.id as string;
        if (seen.has(id)) continue;
        seen.add(id);
        const result = results.get(id);
        const text = result ? resultText(result.block) : '';
        const isError = result?.block.is_error === true;
        if (isError && text.trimStart().startsWith('<tool_use_error>')) continue; // rejected: no hook saw it
        const name = typeof use.name === 'string' ? use.name : '';
        const input = isObject(use.input) ? use.input : {};
        const fields = { tool_name: name, tool_input: input, tool_use_id: id };
        const pre = push(e, n, 'PreToolUse', fields);
        const preTraces = toolTraces.get(`PreToolUse\0${id}`) ?? [];
        pre.ev.old = preToolOld(name, result ? { text, isError } : undefined, preTraces);
        pre.traces = preTraces;
        if (name === 'Skill') {
          const skill =
            typeof input.skill === 'string'
              ? input.skill
              : typeof input.command === 'string'
                ? input.command
                : undefined;
          if (skill !== undefined && !skills.includes(skill.replace(/^\//, ''))) skills.push(skill.replace(/^\//, ''));
        }
        if (!result) continue;
        const denial = isError && (pre.ev.old.verdict === 'deny' || pre.ev.old.verdict === 'stop');
        const re = result.e;
        const denialKind = typeof re.toolDenialKind === 'string' ? re.toolDenialKind : undefined;
        const refusal =
          (denialKind !== undefined && denialKind !== 'interrupted') ||
          text.startsWith("The user doesn't want to proceed with this tool use") ||
          text.startsWith('Permission to use ') ||
          text.startsWith('Claude requested permissions to') ||
          permissionDenied.has(id);
        if (denial || refusal) continue;
        const interrupted = denialKind === 'interrupted' || text.startsWith('[Request interrupted by user');
        const post = isError
          ? { event: 'PostToolUseFailure', extra: { error: text, is_interrupt: interrupted } }
          : {
              event: 'PostToolUse',
              extra: {
                tool_response:
                  isObject(re.toolUseResult) || Array.isArray(re.toolUseResult)
                    ? re.toolUseResult
                    : (result.block.content ?? ''),
              },
            };
        const saved = lastTs;
        const rts = tsOf(re);
        if (rts !== undefined) lastTs = rts;
        const pp = push(re, result.n, post.event, { ...fields, ...post.extra });
        lastTs = saved;
        const postTraces = toolTraces.get(`${post.event}\0${id}`) ?? [];
        pp.traces = postTraces;
        pp.ev.old = fromTraces(postTraces, 'block', 'tool_result');
      }
      const synthetic = isObject(e.message) && e.message.model === '<synthetic>';
      if (mainChain && uses.length === 0 && !synthetic) {
        const next = nextTurnEntry(i);
        if (next === undefined || isPromptEntry(next) || isFeedbackEntry(next) || isCommandEntry(next)) {
          const p = push(e, n, 'Stop', {
            stop_hook_active: feedbackSinceTurn,
            last_assistant_message: lastText,
            background_tasks: [],
            session_crons: [],
          });
          p.finish = (tr) => stopOld(tr, next !== undefined && isFeedbackEntry(next));
        }
      }
      if (!isMain && i === lastConversation && uses.length === 0 && blocks.some((b) => b.type === 'text')) {
        const p = push(e, n, 'SubagentStop', {
          stop_hook_active: false,
          agent_transcript_path: file.file,
          last_assistant_message: lastText,
        });
        p.finish = (tr) => stopOld(tr, false);
      }
    }
  }

  // Traces without a call of their event: the nearest preceding event of that name (Stop for a summary).
  for (const t of traces) {
    if (
      t.toolUseId !== undefined &&
      pending.some((p) => p.ev.tool_use_id === t.toolUseId && p.ev.event === t.hookEvent)
    )
      continue;
    let target: Pending | undefined;
    for (const p of pending) if (p.ev.event === t.hookEvent && p.n <= t.n) target = p;
    if (!isMain && t.kind === 'stop_hook_summary')
      for (const p of pending) if (p.ev.event === 'SubagentStop' && p.n <= t.n) target = p;
    target?.traces.push(t);
  }
  for (const p of pending) {
    if (p.finish) p.ev.old = p.finish(p.traces);
    else if (p.ev.event !== 'PreToolUse' && p.ev.event !== 'PostToolUse' && p.ev.event !== 'PostToolUseFailure')
      p.ev.old = {
        verdict: 'proceeded',
        basis: p.traces[0]?.basis ?? 'transcript',
        reason: null,
        hooks: mergeHooks([], p.traces),
      };
  }
  return pending.map((p) => ({ ev: p.ev, ts: p.ts, rank, order: p.order }));
}

/** The command texts of the traces, once each in order; null when none names one. */
function mergeHooks(first: string[], traces: Trace[]): string[] | null {
  const all = [...first, ...traces.flatMap((t) => t.commands)];
  return all.length === 0 ? null : [...new Set(all)];
}

/** A hook_blocking_error gives `blocking`, a hook_stopped_continuation `stop`; else proceeded. */
function fromTraces(traces: Trace[], blocking: string, basis: OldBasis): OldDecision {
  const hooks = mergeHooks([], traces);
  const stopped = traces.find((t) => t.kind === 'hook_stopped_continuation');
  if (stopped) return { verdict: 'stop', basis: 'attachment', reason: stopped.reason, hooks };
  const blocked = traces.find((t) => t.kind === 'hook_blocking_error');
  if (blocked) return { verdict: blocking, basis: 'attachment', reason: blocked.reason, hooks };
  return { verdict: 'proceeded', basis, reason: null, hooks };
}

function preToolOld(
  tool: string,
  result: { text: string; isError: boolean } | undefined,
  traces: Trace[],
): OldDecision {
  const hooks = mergeHooks([], traces);
  const stopped = traces.find((t) => t.kind === 'hook_stopped_continuation');
  if (stopped) return { verdict: 'stop', basis: 'attachment', reason: stopped.reason ?? result?.text ?? null, hooks };
  const blocked = traces.find((t) => t.kind === 'hook_blocking_error');
  if (blocked) return { verdict: 'deny', basis: 'attachment', reason: blocked.reason ?? result?.text ?? null, hooks };
  if (result?.isError) {
    const text = result.text;
    if (text.startsWith('Execution stopped by PreToolUse hook'))
      return { verdict: 'stop', basis: 'tool_result', reason: text, hooks };
    if (
      text.startsWith(`PreToolUse:${tool} hook error:`) ||
      (text.startsWith('Hook PreToolUse:') && text.includes('denied this tool'))
    ) {
      const cmd = /hook error: \[([^\]]+)\]: /.exec(text)?.[1];
      return { verdict: 'deny', basis: 'tool_result', reason: text, hooks: cmd ? mergeHooks([cmd], traces) : hooks };
    }
  }
  if (result) return { verdict: 'proceeded', basis: 'tool_result', reason: null, hooks };
  if (traces.length > 0) return { verdict: 'proceeded', basis: traces[0]!.basis, reason: null, hooks };
  return { verdict: 'unknown', basis: 'none', reason: null, hooks };
}

function stopOld(traces: Trace[], feedbackNext: boolean): OldDecision {
  const hooks = mergeHooks([], traces);
  const blocked = traces.find((t) => t.kind === 'hook_blocking_error');
  if (blocked) return { verdict: 'block', basis: 'attachment', reason: blocked.reason, hooks };
  if (feedbackNext) return { verdict: 'block', basis: 'feedback', reason: null, hooks };
  const summary = traces.find((t) => t.kind === 'stop_hook_summary');
  if (summary?.prevented) return { verdict: 'stop', basis: 'summary', reason: summary.reason, hooks };
  return { verdict: 'proceeded', basis: summary ? 'summary' : 'transcript', reason: null, hooks };
}

export type { InputKind };
