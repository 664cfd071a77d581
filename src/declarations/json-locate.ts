// JSON with positions, for extension.json: JSON.parse gives the values, a small scanner gives
// the line and column of every key and list item, and a parse error gets its line and column
// from the offset V8 reports (or from where the scanner lost its way).
import { parseJsonWithPositions as parseStrictJson } from './json.js';
import { pathKey, positionOfOffset, type Locator, type PathSeg, type Position } from './source-file.js';

export type JsonParse =
  { ok: true; value: unknown; locate: Locator } | { ok: false; message: string; position: Position };

export function parseJsonWithPositions(text: string): JsonParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // A trailing comma is the commonest slip in a hand-written JSON file: said as such, at the
    // comma (V8 names the bracket after it, often a line later).
    const strict = parseStrictJson(text);
    if (!strict.ok && strict.error.message.startsWith('trailing comma')) {
      return {
        ok: false,
        message: strict.error.message,
        position: { line: strict.error.line, column: strict.error.column },
      };
    }
    const message = (err as Error).message;
    const at = /at position (\d+)/.exec(message);
    const offset = at ? Number(at[1]) : (new JsonScanner(text).run().failedAt ?? text.length);
    return {
      ok: false,
      message: message.replace(/\s*in JSON at position \d+.*$/, ''),
      position: positionOfOffset(text, offset),
    };
  }
  const positions = new JsonScanner(text).run().positions;
  return { ok: true, value, locate: (path) => positions.get(pathKey(path)) };
}

class JsonScanner {
  readonly positions = new Map<string, Position>();
  failedAt: number | undefined;
  private i = 0;
  private line = 1;
  private lineStart = 0;

  constructor(private readonly s: string) {}

  run(): this {
    this.space();
    this.value([]);
    return this;
  }

  private here(): Position {
    return { line: this.line, column: this.i - this.lineStart + 1 };
  }

  private value(path: PathSeg[]): boolean {
    const c = this.s[this.i];
    if (c === '{') return this.object(path);
    if (c === '[') return this.array(path);
    if (c === '"') return this.string() !== undefined;
    const start = this.i;
    while (this.i < this.s.length && /[-+.0-9a-zA-Z]/.test(this.s[this.i]!)) this.i++;
    return this.fail(this.i > start);
  }

  private object(path: PathSeg[]): boolean {
    this.i++;
    this.space();
    if (this.s[this.i] === '}') {
      this.i++;
      return true;
    }
    for (;;) {
      const at = this.here();
      const key = this.string();
      if (key === undefined) return false;
      const keyPath = [...path, key];
      const k = pathKey(keyPath);
      if (!this.positions.has(k)) this.positions.set(k, at);
      this.space();
      if (!this.fail(this.s[this.i] === ':')) return false;
      this.i++;
      this.space();
      if (!this.value(keyPath)) return false;
      this.space();
      if (this.s[this.i] === ',') {
        this.i++;
        this.space();
        continue;
      }
      if (!this.fail(this.s[this.i] === '}')) return false;
      this.i++;
      return true;
    }
  }

  private array(path: PathSeg[]): boolean {
    this.i++;
    this.space();
    if (this.s[this.i] === ']') {
      this.i++;
      return true;
    }
    for (let index = 0; ; index++) {
      this.positions.set(pathKey([...path, index]), this.here());
      if (!this.value([...path, index])) return false;
      this.space();
      if (this.s[this.i] === ',') {
        this.i++;
        this.space();
        continue;
      }
      if (!this.fail(this.s[this.i] === ']')) return false;
      this.i++;
      return true;
    }
  }

  private string(): string | undefined {
    if (!this.fail(this.s[this.i] === '"')) return undefined;
    const start = this.i;
    this.i++;
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === '\\') this.i += 2;
      else if (c === '"') {
        this.i++;
        try {
          return JSON.parse(this.s.slice(start, this.i)) as string;
        } catch {
          this.fail(false);
          return undefined;
        }
      } else if (c === '\n') break;
      else this.i++;
    }
    this.fail(false);
    return undefined;
  }

  private space(): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === '\n') {
        this.i++;
        this.line++;
        this.lineStart = this.i;
      } else if (c === ' ' || c === '\t' || c === '\r') this.i++;
      else return;
    }
  }

  private fail(ok: boolean): boolean {
    if (!ok && this.failedAt === undefined) this.failedAt = this.i;
    return ok;
  }
}
