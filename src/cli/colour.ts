// The one place that decides whether output is coloured (SPEC §6 Conventions): on for a TTY;
// off when NO_COLOR is non-empty, TERM=dumb, --no-color, or stdout is not a TTY; FORCE_COLOR
// turns it on unless NO_COLOR. chalk alone ignores NO_COLOR, so nothing else may colour.
import { Chalk, type ChalkInstance } from 'chalk';

export type Style = 'error' | 'warning' | 'ok' | 'dim' | 'bold' | 'accent';

export interface Colour {
  enabled: boolean;
  paint(style: Style, text: string): string;
}

export function colourEnabled(opts: { flag?: boolean; env?: NodeJS.ProcessEnv; isTTY?: boolean }): boolean {
  const env = opts.env ?? process.env;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (opts.flag === false) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  if (opts.flag === true) return true;
  if (env.TERM === 'dumb') return false;
  return opts.isTTY ?? Boolean(process.stdout.isTTY);
}

export function makeColour(enabled: boolean): Colour {
  if (!enabled) return { enabled, paint: (_s, text) => text };
  const chalk: ChalkInstance = new Chalk({ level: 1 });
  const styles: Record<Style, (t: string) => string> = {
    error: chalk.red,
    warning: chalk.yellow,
    ok: chalk.green,
    dim: chalk.dim,
    bold: chalk.bold,
    accent: chalk.cyan,
  };
  return { enabled, paint: (style, text) => styles[style](text) };
}
