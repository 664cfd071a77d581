// The one place that decides whether output is coloured (SPEC §6 Conventions, §7.4): --color and
// --no-color decide when given; else off when NO_COLOR is non-empty, on with FORCE_COLOR, off for
// TERM=dumb, and on exactly when stdout is a TTY. Nothing else may colour.
//
// The escapes are written here rather than by chalk: six basic styles need no library, and chalk
// was four modules to load on every start, coloured output or not. The text is what chalk 5 at
// level 1 makes of it (a test holds the two together): an inner close code re-opens the style,
// and a line break closes it and opens it again on the next line.

import { stdoutIsTTY } from './output.js';

export type Style = 'error' | 'warning' | 'ok' | 'dim' | 'bold' | 'accent';

export interface Colour {
  enabled: boolean;
  paint(style: Style, text: string): string;
}

export function colourEnabled(opts: { flag?: boolean; env?: NodeJS.ProcessEnv; isTTY?: boolean }): boolean {
  const env = opts.env ?? process.env;
  // A flag on the command line is the latest word: --color beats NO_COLOR (SPEC §7.4).
  if (opts.flag !== undefined) return opts.flag;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  if (env.TERM === 'dumb') return false;
  return opts.isTTY ?? stdoutIsTTY();
}

const CODES: Readonly<Record<Style, readonly [open: string, close: string]>> = {
  error: ['\u001B[31m', '\u001B[39m'],
  warning: ['\u001B[33m', '\u001B[39m'],
  ok: ['\u001B[32m', '\u001B[39m'],
  dim: ['\u001B[2m', '\u001B[22m'],
  bold: ['\u001B[1m', '\u001B[22m'],
  accent: ['\u001B[36m', '\u001B[39m'],
};

export function makeColour(enabled: boolean): Colour {
  if (!enabled) return { enabled, paint: (_s, text) => text };
  return { enabled, paint: ansi };
}

/** `text` in one style, as chalk writes it. */
export function ansi(style: Style, text: string): string {
  if (text === '') return '';
  const [open, close] = CODES[style];
  let s = text;
  if (s.includes('\u001B')) s = s.replaceAll(close, close + open);
  if (s.includes('\n')) s = s.replace(/\r?\n/g, (lineBreak) => close + lineBreak + open);
  return open + s + close;
}
