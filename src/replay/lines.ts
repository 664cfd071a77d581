// Reading a JSONL file line by line (replay.md §3.1): never whole, blank lines ignored, a line
// that is not JSON counted as torn and named (the first five) on stderr, never a crash.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { displayPath } from '../display-path.js';
import type { InputReport } from './model.js';

export interface JsonLine {
  /** 1-based line number in the file. */
  n: number;
  value: unknown;
}

export interface LineCounts {
  /** Non-blank lines. */
  lines: number;
  torn: number;
  foreign: number;
}

/**
 * The input report of a file of JSON lines (an event file, the payload log): its one session
 * when all its events share one, and the counts its reading kept.
 */
export function jsonLinesInput(
  file: string,
  kind: InputReport['kind'],
  read: { sessions: ReadonlyMap<string, number>; counts: LineCounts; entries: number; events: number },
  skipped: InputReport['skipped'] = {},
): InputReport {
  return {
    file,
    kind,
    session_id: read.sessions.size === 1 ? [...read.sessions.keys()][0]! : null,
    cwd: null,
    lines: read.counts.lines,
    entries: read.entries,
    torn: read.counts.torn,
    foreign: read.counts.foreign,
    skipped,
    events: read.events,
  };
}

/** How many torn and how many foreign lines of a file are named one by one (replay.md §3.1). */
export const NAMED_BAD_LINES = 5;

/** Every non-blank line of the file, parsed; torn lines are counted in `counts` and skipped. */
export async function* jsonLines(file: string, counts: LineCounts, notes: BadLineNotes): AsyncGenerator<JsonLine> {
  const rl = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let n = 0;
  for await (const raw of rl) {
    n++;
    const text = n === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    if (text.trim() === '') continue;
    counts.lines++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      counts.torn++;
      notes.torn(n);
      continue;
    }
    yield { n, value };
  }
}

/** The warnings of replay.md §3.1 for one file: the first five torn and five foreign lines, then a count. */
export class BadLineNotes {
  readonly warnings: string[] = [];
  private torns = 0;
  private foreigns = 0;
  private more = 0;
  private readonly shown: string;

  constructor(file: string) {
    this.shown = displayPath(file);
  }

  torn(line: number): void {
    if (this.torns++ < NAMED_BAD_LINES) this.warnings.push(`${this.shown}:${line}: not valid JSON; line skipped`);
    else this.more++;
  }

  foreign(line: number): void {
    if (this.foreigns++ < NAMED_BAD_LINES)
      this.warnings.push(`${this.shown}:${line}: not a Claude Code entry; line skipped`);
    else this.more++;
  }

  /** The warnings, with the closing count when lines were left unnamed. */
  all(): string[] {
    return this.more > 0 ? [...this.warnings, `${this.shown}: ${this.more} more lines skipped`] : this.warnings;
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
