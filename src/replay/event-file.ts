// Plain event files (replay.md §2.3): JSONL of `{"event", "payload"}` lines, each optionally with
// `dialect`, `session_id`, `timestamp` and `old_verdict`. A line whose payload is not an object
// is foreign; one that is not JSON is torn. Neither stops the replay.
import { basename } from 'node:path';
import { BadLineNotes, isObject, jsonLines, jsonLinesInput, type LineCounts } from './lines.js';
import type { ReadFile, ReplayEvent } from './model.js';

export interface EventFileOptions {
  /** Whether a dialect knows the event (a line naming an event its dialect lacks is foreign). */
  knows(event: string, dialect: string | null): boolean;
}

export async function readEventFile(file: string, opts: EventFileOptions): Promise<ReadFile> {
  const counts: LineCounts = { lines: 0, torn: 0, foreign: 0 };
  const notes = new BadLineNotes(file);
  const events: ReplayEvent[] = [];
  const group = basename(file, '.jsonl');
  let entries = 0;
  const seqs = new Map<string, number>();
  for await (const { n, value } of jsonLines(file, counts, notes)) {
    const dialect = isObject(value) && typeof value.dialect === 'string' ? value.dialect : null;
    if (
      !isObject(value) ||
      typeof value.event !== 'string' ||
      !isObject(value.payload) ||
      !opts.knows(value.event, dialect)
    ) {
      counts.foreign++;
      notes.foreign(n);
      continue;
    }
    entries++;
    const payload = value.payload;
    const session =
      typeof value.session_id === 'string'
        ? value.session_id
        : typeof payload.session_id === 'string'
          ? payload.session_id
          : group;
    const seq = (seqs.get(session) ?? 0) + 1;
    seqs.set(session, seq);
    const old = typeof value.old_verdict === 'string' ? value.old_verdict : undefined;
    events.push({
      session_id: session,
      seq,
      event: value.event,
      dialect,
      tool_name: typeof payload.tool_name === 'string' ? payload.tool_name : null,
      tool_use_id: typeof payload.tool_use_id === 'string' ? payload.tool_use_id : null,
      agent_id: typeof payload.agent_id === 'string' ? payload.agent_id : null,
      timestamp: typeof value.timestamp === 'string' ? value.timestamp : null,
      source: { file, line: n, kind: 'events' },
      sidechain: typeof payload.agent_id === 'string',
      payload,
      old:
        old !== undefined
          ? { verdict: old, basis: 'events', reason: null, hooks: null }
          : { verdict: 'unknown', basis: 'none', reason: null, hooks: null },
      skills: [],
    });
  }
  return {
    input: jsonLinesInput(file, 'events', { sessions: seqs, counts, entries, events: events.length }),
    events,
    warnings: notes.all(),
  };
}
