// Diagnostics of one compozy declaration, at the offending key's position, and typed reads that
// report a wrong type with the texts SPEC quotes (SPEC §2.1, §6 diagnostics).
import type { DiagnosticCode } from '../../../declarations/codes.js';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import { makeDiagnostic, type PathSeg, type Position } from '../../../declarations/source-file.js';
import type { RawHook } from './declaration.js';

export const q = (s: string): string => JSON.stringify(s);

export type Table = Record<string, unknown>;

/** YAML and JSON may write `null` for an optional field: it counts as not written. */
export function absent(v: unknown): v is null | undefined {
  return v === undefined || v === null;
}

export function isTable(v: unknown): v is Table {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (v instanceof Date) return 'a date';
  switch (typeof v) {
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'number':
    case 'bigint':
      return Number.isInteger(Number(v)) ? 'an integer' : 'a number';
    case 'object':
      return 'a table';
    default:
      return typeof v;
  }
}

export function display(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return describe(v);
}

export class Checker {
  readonly diagnostics: Diagnostic[] = [];
  failed = false;
  hook: string | undefined;
  private ref: string | undefined;
  command: { written: string; at: readonly PathSeg[] } | undefined;

  constructor(private readonly raw: RawHook) {}

  /** From here on, messages are about the hook called `name`. */
  named(name: string | undefined): void {
    this.hook = name;
    this.ref = undefined;
  }

  /** `hooks: hook "<name>"`, which most messages start with: built only when one is written. */
  get hookRef(): string {
    return (this.ref ??= `hooks: hook ${q(this.hook ?? '')}`);
  }

  error(code: DiagnosticCode, message: string, at: readonly PathSeg[]): void {
    this.failed = true;
    this.push('error', code, message, at);
  }

  warn(code: DiagnosticCode, message: string, at: readonly PathSeg[]): void {
    this.push('warning', code, message, at);
  }

  private push(severity: 'error' | 'warning', code: DiagnosticCode, message: string, at: readonly PathSeg[]): void {
    const raw = this.raw;
    const position = this.position(at);
    this.diagnostics.push(
      makeDiagnostic(severity, code, (raw.messagePrefix ?? '') + message, raw.file, position, {
        source: raw.source,
        hook: this.hook,
      }),
    );
  }

  /** The offending key's position, else the nearest written parent's, else the declaration's. */
  private position(at: readonly PathSeg[]): Position {
    for (let k = at.length; k > 0; k--) {
      const found = this.raw.locate([...this.raw.path, ...at.slice(0, k)]);
      if (found) return found;
    }
    return this.raw.position;
  }

  private typeError(path: readonly PathSeg[], expected: string, got: unknown): void {
    const field = path.map(String).join('.');
    this.error('invalid_field_type', `${this.hookRef} ${field} must be ${expected}, got ${describe(got)}`, path);
  }

  string(table: Table, key: string, base: readonly PathSeg[]): string | undefined {
    const v = table[key];
    if (absent(v)) return undefined;
    if (typeof v === 'string') return v;
    this.typeError([...base, key], 'a string', v);
    return undefined;
  }

  bool(table: Table, key: string, base: readonly PathSeg[]): boolean | undefined {
    const v = table[key];
    if (absent(v)) return undefined;
    if (typeof v === 'boolean') return v;
    this.typeError([...base, key], 'a boolean', v);
    return undefined;
  }

  table(table: Table, key: string, base: readonly PathSeg[]): Table | undefined {
    const v = table[key];
    if (absent(v)) return undefined;
    if (isTable(v)) return v;
    this.typeError([...base, key], 'a table', v);
    return undefined;
  }

  stringList(table: Table, key: string, base: readonly PathSeg[]): string[] | undefined {
    const v = table[key];
    if (absent(v)) return undefined;
    if (!Array.isArray(v)) {
      this.typeError([...base, key], 'a list of strings', v);
      return undefined;
    }
    let ok = true;
    v.forEach((item, i) => {
      if (typeof item !== 'string') {
        this.typeError([...base, key, i], 'a string', item);
        ok = false;
      }
    });
    return ok ? (v as string[]) : undefined;
  }

  stringMap(table: Table, key: string, base: readonly PathSeg[]): Record<string, string> | undefined {
    const v = table[key];
    if (absent(v)) return undefined;
    if (!isTable(v)) {
      this.typeError([...base, key], 'a table of strings', v);
      return undefined;
    }
    let ok = true;
    for (const [k, item] of Object.entries(v)) {
      if (typeof item !== 'string') {
        this.typeError([...base, key, k], 'a string', item);
        ok = false;
      }
    }
    return ok ? { ...(v as Record<string, string>) } : undefined;
  }
}
