// Writing TOML values and keys for inserted text. One line per value: arrays as `["a", "b"]`,
// tables as inline `{ K = "v" }`. Strings are basic ("...") unless they hold a backslash or a
// double quote and can be written literally ('...'), which keeps patterns such as `[\*]` readable.

export type TomlValue = string | boolean | number | bigint | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

export function formatKey(segment: string): string {
  return BARE_KEY.test(segment) ? segment : basicString(segment);
}

/** ['matcher', 'tool_id'] → `matcher.tool_id`. */
export function formatKeyPath(segments: readonly string[]): string {
  return segments.map(formatKey).join('.');
}

export function formatValue(value: TomlValue): string {
  if (typeof value === 'string') return formatString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error(`formatValue: only integers are written, got ${value}`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(formatValue).join(', ')}]`;
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{ ${entries.map(([k, v]) => `${formatKey(k)} = ${formatValue(v)}`).join(', ')} }`;
}

export function formatString(s: string): string {
  if (/["\\]/.test(s) && canBeLiteral(s)) return `'${s}'`;
  return basicString(s);
}

/** A literal string cannot hold a single quote or control characters other than tab. */
function canBeLiteral(s: string): boolean {
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === "'" || (cp < 0x20 && cp !== 0x09) || cp === 0x7f) return false;
  }
  return true;
}

const ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\f': '\\f',
  '\r': '\\r',
};

function basicString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const escaped = ESCAPES[ch];
    if (escaped !== undefined) out += escaped;
    else {
      const cp = ch.codePointAt(0)!;
      out += cp < 0x20 || cp === 0x7f ? `\\u${cp.toString(16).padStart(4, '0')}` : ch;
    }
  }
  return out + '"';
}

export function isTomlTable(v: unknown): v is TomlTable {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}
