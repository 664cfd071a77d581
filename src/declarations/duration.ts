// Go's time.ParseDuration, the syntax of a compozy `timeout` (SPEC §2.1): a possibly signed
// sequence of decimal numbers, each with an optional fraction and a unit, such as "300ms",
// "-1.5h" or "2h45m". Units: ns, us (or µs U+00B5, μs U+03BC), ms, s, m, h. "0" needs no unit.

const NS_PER_UNIT: ReadonlyMap<string, number> = new Map([
  ['ns', 1],
  ['us', 1e3],
  ['\u00b5s', 1e3],
  ['\u03bcs', 1e3],
  ['ms', 1e6],
  ['s', 1e9],
  ['m', 60e9],
  ['h', 3600e9],
]);

/** Go rejects durations beyond int64 nanoseconds (about 292 years): 2^63 - 1. */
const MAX_NS = 2 ** 63;

/** Nanoseconds (possibly negative), or undefined when Go would reject the text. */
export function parseGoDuration(text: string): number | undefined {
  let s = text;
  let negative = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') return undefined;
  let total = 0;
  let i = 0;
  while (i < s.length) {
    const start = i;
    while (i < s.length && isDigit(s.charCodeAt(i))) i++;
    const whole = s.slice(start, i);
    let fraction = '';
    if (s[i] === '.') {
      i++;
      const fracStart = i;
      while (i < s.length && isDigit(s.charCodeAt(i))) i++;
      fraction = s.slice(fracStart, i);
    }
    // Go: "." alone, or no digits at all, is invalid.
    if (whole === '' && fraction === '') return undefined;
    const unitStart = i;
    while (i < s.length && s[i] !== '.' && !isDigit(s.charCodeAt(i))) i++;
    const perUnit = NS_PER_UNIT.get(s.slice(unitStart, i));
    if (perUnit === undefined) return undefined; // missing or unknown unit
    const value = Number(whole === '' ? '0' : whole) + (fraction === '' ? 0 : Number(`0.${fraction}`));
    total += value * perUnit;
    if (total >= MAX_NS) return undefined;
  }
  return negative ? -total : total;
}

/**
 * A duration in whole milliseconds for `timeout_ms`. A positive duration below one millisecond
 * rounds up to 1, so a tiny timeout never turns into "0 = executor default".
 */
export function nanosecondsToMs(ns: number): number {
  if (ns <= 0) return Math.trunc(ns / 1e6);
  return Math.ceil(ns / 1e6);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
