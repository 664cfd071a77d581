// `hooks replay` reports (replay.md §6): the human table of changed events and its summary
// lines, the JSON document, the JSONL lines, JUnit XML, and the progress line for stderr.
import type { Colour } from '../cli/colour.js';
import { renderTable } from '../cli/table.js';
import type { ReplayedEvent, ReplayReport } from '../app/replay.js';
import { xmlSafe } from './hooktest/junit.js';

/** An event as §6.1 shows it: the report's own `failing` flag left out. */
export function eventJson(e: ReplayedEvent): Record<string, unknown> {
  const { failing: _failing, ...rest } = e;
  return rest;
}

export function replayJson(r: ReplayReport): Record<string, unknown> {
  return { replay: r.replay, summary: r.summary, inputs: r.inputs, events: r.events.map(eventJson) };
}

export function jsonlEventLine(e: ReplayedEvent): string {
  return JSON.stringify({ type: 'event', ...eventJson(e) });
}

export function jsonlSummaryLine(r: ReplayReport): string {
  return JSON.stringify({ type: 'summary', replay: r.replay, summary: r.summary, inputs: r.inputs });
}

const CHANGE_WORDS: Record<string, string> = {
  blocks: 'now blocks',
  asks: 'now asks',
  allows: 'now allows',
  differs: 'differs',
};

function changeCell(e: ReplayedEvent): string {
  if (e.change !== null) return CHANGE_WORDS[e.change]!;
  if ((e.fired_now_only?.length ?? 0) > 0 || (e.fired_then_only?.length ?? 0) > 0) return 'fired';
  return '';
}

function nowCell(e: ReplayedEvent): string {
  if (e.new.error !== null && e.new.verdict === null) return 'error';
  if (e.new.verdict === null) return e.new.would_run !== null ? `would run ${e.new.would_run.length}` : '-';
  return e.new.verdict;
}

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

/** §6.3: the table (changed or failing events; every event with --all), then the summary lines. */
export function renderReplay(r: ReplayReport, colour: Colour, all: boolean): string {
  const rows = r.events.filter((e) => all || e.change !== null || e.failing);
  const out: string[] = [];
  if (rows.length > 0) {
    out.push(
      renderTable(
        ['Session', 'Seq', 'Event', { head: 'Call', cutFirst: true }, 'Then', 'Now', 'Change'],
        rows.map((e) => [
          e.session_id.slice(0, 8),
          e.seq,
          e.event,
          e.label,
          e.old.verdict,
          nowCell(e),
          e.failing ? colour.paint('error', changeCell(e)) : changeCell(e),
        ]),
        colour,
      ),
    );
    out.push('');
  }
  const s = r.summary;
  const b = s.by_change;
  out.push(
    `replayed ${plural(s.events, 'event')} from ${plural(s.sessions, 'session')}: ${s.changed} changed (${b.blocks} now block, ${b.asks} now ask, ${b.allows} now allow, ${b.differs} differ), ${s.unknown_old} without a record of the old decision`,
  );
  const skippedTypes = new Map<string, number>();
  for (const i of r.inputs)
    for (const [t, n] of Object.entries(i.skipped)) skippedTypes.set(t, (skippedTypes.get(t) ?? 0) + n);
  const e = s.entries;
  if (e.torn > 0 || e.foreign > 0 || e.skipped > 0) {
    const types = [...skippedTypes.entries()]
      .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
      .map(([t, n]) => `${t} ${n}`)
      .join(', ');
    out.push(
      `${e.torn} torn and ${e.foreign} foreign lines skipped; ${e.skipped} entries of types replay does not read${types ? ` (${types})` : ''}`,
    );
  }
  return out.join('\n');
}

/** §6.3's progress line. */
export function progressLine(done: number, total: number, changed: number): string {
  return `replay: ${done}/${total} events (${changed} changed)`;
}

// ---- JUnit (§6.2) ----

function text(s: string): string {
  return xmlSafe(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(s: string): string {
  return text(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

type Verdictless = 'failure' | 'error' | 'skipped' | 'passed';

function caseKind(e: ReplayedEvent, dryRun: boolean): Verdictless {
  if (e.failing) return 'failure';
  if (e.new.error !== null && e.new.verdict === null && !dryRun) return 'error';
  if (e.old.verdict === 'unknown' || dryRun) return 'skipped';
  return 'passed';
}

export function renderJunit(r: ReplayReport): string {
  const dry = r.replay.dry_run;
  const count = (events: ReplayedEvent[]) => {
    const kinds = events.map((e) => caseKind(e, dry));
    return `tests="${events.length}" failures="${kinds.filter((k) => k === 'failure').length}" errors="${kinds.filter((k) => k === 'error').length}" skipped="${kinds.filter((k) => k === 'skipped').length}"`;
  };
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="hookctl replay" ${count(r.events)}>`];
  for (const s of r.sessions) {
    const events = r.events.filter((e) => e.session_id === s.session_id);
    lines.push(`  <testsuite name="${attr(s.session_id)}" file="${attr(s.file)}" ${count(events)}>`);
    for (const e of events) {
      const open = `    <testcase classname="${attr(e.session_id)}" name="${attr(`#${e.seq} ${e.event} ${e.label}`)}"`;
      const kind = caseKind(e, dry);
      if (kind === 'passed') {
        lines.push(`${open}/>`);
        continue;
      }
      lines.push(`${open}>`);
      if (kind === 'failure') {
        const type = e.change ?? 'fired';
        const hooks = e.new.runs.map((x) => `${x.hook_name}: ${x.outcome}${x.reason ? ` (${x.reason})` : ''}`);
        const body = [
          `reason: ${e.new.reason ?? e.old.reason ?? '-'}`,
          ...hooks,
          ...(e.fired_now_only?.length ? [`fired now only: ${e.fired_now_only.join(', ')}`] : []),
          ...(e.fired_then_only?.length ? [`fired then only: ${e.fired_then_only.join(', ')}`] : []),
        ].join('\n');
        lines.push(
          `      <failure type="${attr(type)}" message="${attr(`${e.old.verdict} -> ${e.new.verdict ?? 'null'}`)}">${text(body)}</failure>`,
        );
      } else if (kind === 'error') {
        lines.push(`      <error message="${attr(e.new.error ?? '')}">${text(e.new.error ?? '')}</error>`);
      } else {
        const why = dry ? 'dry run: nothing ran' : 'no record of the old decision';
        lines.push(`      <skipped message="${attr(why)}"/>`);
      }
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n');
}
