// Go's time.ParseDuration, the syntax of a compozy `timeout` (SPEC §2.1): a possibly signed
// sequence of decimal numbers, each with an optional fraction and a unit, such as "300ms",
// "-1.5h" or "2h45m". Units: ns, us (or µs U+00B5, μs U+03BC), ms, s, m, h. "0" needs no unit.
//
// Read step by step as Go's own code reads it (src/time/format.go), in unsigned 64-bit integers
// (BigInt here), so the same texts are accepted and give the same nanoseconds: the whole part
// exactly, the fraction through float64 and truncated (so "0.1ns" is 0, as in Go), up to Go's
// maximum "9223372036854775807ns" (and "-9223372036854775808ns").

const NS_PER_UNIT: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['\u00b5s', 1_000n],
  ['\u03bcs', 1_000n],
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);

const TWO_63 = 1n << 63n;
const MAX_INT64 = TWO_63 - 1n;

/** Nanoseconds (possibly negative), or undefined when Go would reject the text. */
export function parseGoDuration(text: string): bigint | undefined {
  let s = text;
  let negative = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return undefined;
  let total = 0n;
  let i = 0;
  while (i < s.length) {
    // The next character must be [0-9.].
    if (s[i] !== '.' && !isDigit(s.charCodeAt(i))) return undefined;
    const wholeStart = i;
    let whole = 0n;
    for (; i < s.length && isDigit(s.charCodeAt(i)); i++) {
      if (whole > TWO_63 / 10n) return undefined; // Go's leadingInt overflow
      whole = whole * 10n + BigInt(s.charCodeAt(i) - 0x30);
      if (whole > TWO_63) return undefined;
    }
    const hasWhole = i > wholeStart;
    let fraction = 0n;
    let scale = 1;
    let hasFraction = false;
    if (s[i] === '.') {
      i++;
      const fractionStart = i;
      // Go's leadingFraction: digits past int64's precision are consumed and ignored.
      let overflow = false;
      for (; i < s.length && isDigit(s.charCodeAt(i)); i++) {
        if (overflow) continue;
        if (fraction > MAX_INT64 / 10n) {
          overflow = true;
          continue;
        }
        const next = fraction * 10n + BigInt(s.charCodeAt(i) - 0x30);
        if (next > TWO_63) {
          overflow = true;
          continue;
        }
        fraction = next;
        scale *= 10;
      }
      hasFraction = i > fractionStart;
    }
    if (!hasWhole && !hasFraction) return undefined; // ".s", "-.s"
    const unitStart = i;
    while (i < s.length && s[i] !== '.' && !isDigit(s.charCodeAt(i))) i++;
    const perUnit = NS_PER_UNIT.get(s.slice(unitStart, i));
    if (perUnit === undefined) return undefined; // missing or unknown unit
    if (whole > TWO_63 / perUnit) return undefined;
    let v = whole * perUnit;
    if (fraction > 0n) {
      // As Go: float64(f) * (float64(unit) / scale), truncated to an integer.
      v += BigInt(Math.trunc(Number(fraction) * (Number(perUnit) / scale)));
      if (v > TWO_63) return undefined;
    }
    total += v;
    if (total > TWO_63) return undefined;
  }
  if (negative) return -total;
  return total > MAX_INT64 ? undefined : total;
}

/**
 * A duration in whole milliseconds for `timeout_ms`, rounded up: a hook is never stopped before
 * the time its declaration gives, and a positive duration under 1 ms becomes 1 ms rather than
 * 0, which means "the executor's default". 0 stays 0, as a zero Duration is the default in
 * compozy (and Go reads "0.1ns" as 0).
 */
export function nanosecondsToMs(ns: bigint): number {
  if (ns <= 0n) return Number(ns / 1_000_000n);
  return Number((ns + 999_999n) / 1_000_000n);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
