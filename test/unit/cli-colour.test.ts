// Colour escapes: the text chalk 5 (level 1) produced for the same styles and inputs, so
// dropping chalk changed no byte of coloured output. The expected strings were made with chalk.
import { describe, expect, it } from 'vitest';
import { ansi, colourEnabled, makeColour, type Style } from '../../src/cli/colour.js';

const INPUTS: string[] = [
  'denied',
  '',
  'a\nb',
  'a\r\nb\n',
  'x\u001b[39my',
  'pre \u001b[22m post',
  '\u001b[31minner\u001b[39m outer',
  '\u00fcn\u00ef \u65e5\u672c',
];

const CHALK: Record<Style, string[]> = {
  error: [
    '\u001b[31mdenied\u001b[39m',
    '',
    '\u001b[31ma\u001b[39m\n\u001b[31mb\u001b[39m',
    '\u001b[31ma\u001b[39m\r\n\u001b[31mb\u001b[39m\n\u001b[31m\u001b[39m',
    '\u001b[31mx\u001b[39m\u001b[31my\u001b[39m',
    '\u001b[31mpre \u001b[22m post\u001b[39m',
    '\u001b[31m\u001b[31minner\u001b[39m\u001b[31m outer\u001b[39m',
    '\u001b[31m\u00fcn\u00ef \u65e5\u672c\u001b[39m',
  ],
  warning: [
    '\u001b[33mdenied\u001b[39m',
    '',
    '\u001b[33ma\u001b[39m\n\u001b[33mb\u001b[39m',
    '\u001b[33ma\u001b[39m\r\n\u001b[33mb\u001b[39m\n\u001b[33m\u001b[39m',
    '\u001b[33mx\u001b[39m\u001b[33my\u001b[39m',
    '\u001b[33mpre \u001b[22m post\u001b[39m',
    '\u001b[33m\u001b[31minner\u001b[39m\u001b[33m outer\u001b[39m',
    '\u001b[33m\u00fcn\u00ef \u65e5\u672c\u001b[39m',
  ],
  ok: [
    '\u001b[32mdenied\u001b[39m',
    '',
    '\u001b[32ma\u001b[39m\n\u001b[32mb\u001b[39m',
    '\u001b[32ma\u001b[39m\r\n\u001b[32mb\u001b[39m\n\u001b[32m\u001b[39m',
    '\u001b[32mx\u001b[39m\u001b[32my\u001b[39m',
    '\u001b[32mpre \u001b[22m post\u001b[39m',
    '\u001b[32m\u001b[31minner\u001b[39m\u001b[32m outer\u001b[39m',
    '\u001b[32m\u00fcn\u00ef \u65e5\u672c\u001b[39m',
  ],
  dim: [
    '\u001b[2mdenied\u001b[22m',
    '',
    '\u001b[2ma\u001b[22m\n\u001b[2mb\u001b[22m',
    '\u001b[2ma\u001b[22m\r\n\u001b[2mb\u001b[22m\n\u001b[2m\u001b[22m',
    '\u001b[2mx\u001b[39my\u001b[22m',
    '\u001b[2mpre \u001b[22m\u001b[2m post\u001b[22m',
    '\u001b[2m\u001b[31minner\u001b[39m outer\u001b[22m',
    '\u001b[2m\u00fcn\u00ef \u65e5\u672c\u001b[22m',
  ],
  bold: [
    '\u001b[1mdenied\u001b[22m',
    '',
    '\u001b[1ma\u001b[22m\n\u001b[1mb\u001b[22m',
    '\u001b[1ma\u001b[22m\r\n\u001b[1mb\u001b[22m\n\u001b[1m\u001b[22m',
    '\u001b[1mx\u001b[39my\u001b[22m',
    '\u001b[1mpre \u001b[22m\u001b[1m post\u001b[22m',
    '\u001b[1m\u001b[31minner\u001b[39m outer\u001b[22m',
    '\u001b[1m\u00fcn\u00ef \u65e5\u672c\u001b[22m',
  ],
  accent: [
    '\u001b[36mdenied\u001b[39m',
    '',
    '\u001b[36ma\u001b[39m\n\u001b[36mb\u001b[39m',
    '\u001b[36ma\u001b[39m\r\n\u001b[36mb\u001b[39m\n\u001b[36m\u001b[39m',
    '\u001b[36mx\u001b[39m\u001b[36my\u001b[39m',
    '\u001b[36mpre \u001b[22m post\u001b[39m',
    '\u001b[36m\u001b[31minner\u001b[39m\u001b[36m outer\u001b[39m',
    '\u001b[36m\u00fcn\u00ef \u65e5\u672c\u001b[39m',
  ],
};

describe('ansi', () => {
  it.each(Object.keys(CHALK) as Style[])('writes %s as chalk did', (style) => {
    expect(INPUTS.map((text) => ansi(style, text))).toEqual(CHALK[style]);
  });
});

describe('makeColour', () => {
  it('paints only when enabled', () => {
    expect(makeColour(false).paint('error', 'x')).toBe('x');
    expect(makeColour(true).paint('error', 'x')).toBe('\u001b[31mx\u001b[39m');
  });
});

describe('colourEnabled', () => {
  it('follows --color/--no-color, NO_COLOR, FORCE_COLOR, TERM=dumb and the TTY, in that order', () => {
    // SPEC §7.4: --color beats NO_COLOR
    expect(colourEnabled({ env: { NO_COLOR: '1', FORCE_COLOR: '1' }, flag: true, isTTY: true })).toBe(true);
    expect(colourEnabled({ env: { NO_COLOR: '1' }, flag: true, isTTY: false })).toBe(true);
    expect(colourEnabled({ env: { NO_COLOR: '1', FORCE_COLOR: '1' }, isTTY: true })).toBe(false);
    expect(colourEnabled({ env: { FORCE_COLOR: '1' }, flag: false, isTTY: true })).toBe(false);
    expect(colourEnabled({ env: { FORCE_COLOR: '1', TERM: 'dumb' }, isTTY: false })).toBe(true);
    expect(colourEnabled({ env: { TERM: 'dumb' }, flag: true, isTTY: false })).toBe(true);
    expect(colourEnabled({ env: { TERM: 'dumb' }, isTTY: true })).toBe(false);
    expect(colourEnabled({ env: { NO_COLOR: '' }, isTTY: true })).toBe(true);
    expect(colourEnabled({ env: {}, isTTY: false })).toBe(false);
  });
});
