// The human table renderer: the same text as the cli-table3 set-up it replaced (the expected
// strings below were produced by cli-table3 0.6.5 with that set-up), and linear in the rows.
import { describe, expect, it } from 'vitest';
import { makeColour } from '../../src/cli/colour.js';
import {
  displayWidth,
  identifier,
  renderTable,
  shortTimestamps,
  StreamTable,
  terminalWidth,
} from '../../src/cli/table.js';

const plain = makeColour(false);
const colour = makeColour(true);

describe('renderTable', () => {
  it('pads columns to their widest cell plus two spaces and trims line ends', () => {
    expect(
      renderTable(
        ['Order', 'Name', 'Event'],
        [
          [1, 'a', 'tool.pre_call'],
          [12, 'longer-name', 'x'],
        ],
        plain,
      ),
    ).toBe('Order  Name         Event\n1      a            tool.pre_call\n12     longer-name  x');
  });

  it('prints the head alone when there are no rows, and nothing without a head', () => {
    expect(renderTable(['A', 'B'], [], plain)).toBe('A  B');
    expect(renderTable([], [], plain)).toBe('');
  });

  it('shows null and undefined as empty cells; an all-empty row is an empty line', () => {
    expect(
      renderTable(
        ['A', 'B', 'C'],
        [
          [null, undefined, ''],
          ['x', 0, 'z'],
        ],
        plain,
      ),
    ).toBe('A  B  C\n\nx  0  z');
    expect(
      renderTable(
        ['A', 'B'],
        [
          ['x  ', '   '],
          ['', ''],
        ],
        plain,
      ),
    ).toBe('A    B\nx\n');
  });

  it('gives a multi-line cell one line per line of text', () => {
    expect(
      renderTable(
        ['A', 'B'],
        [
          ['one\ntwo\nthree', 'x'],
          ['y', 'z'],
        ],
        plain,
      ),
    ).toBe('A      B\none    x\ntwo\nthree\ny      z');
    // A CRLF is a line break; a lone control character is shown, never written raw (issue 24).
    expect(renderTable(['A', 'B'], [['x\r\ny', 'z']], plain)).toBe('A  B\nx  z\ny');
  });

  it('takes as many columns as the longest row', () => {
    expect(renderTable(['A', 'B', 'C'], [['x'], ['y', 'z', 'w']], plain)).toBe('A  B  C\nx\ny  z  w');
    expect(renderTable(['A'], [['x', 'y'], ['z']], plain)).toBe('A\nx  y\nz');
  });

  it('measures coloured cells without their escape codes and makes the head bold', () => {
    expect(
      renderTable(
        ['Order', 'Name'],
        [
          [1, colour.paint('dim', '(no name)')],
          [2, colour.paint('warning', 'blocked')],
        ],
        colour,
      ),
    ).toBe(
      '\u001b[1mOrder\u001b[22m  \u001b[1mName\u001b[22m\n1      \u001b[2m(no name)\u001b[22m\n2      \u001b[33mblocked\u001b[39m',
    );
  });

  it('counts wide characters as two columns, combining and control characters as none', () => {
    expect(
      renderTable(
        ['Name', 'X'],
        [
          ['日本語', 'ok'],
          ['emoji 🎉', 'ok'],
          ['e\u0301', 'ok'],
        ],
        plain,
      ),
    ).toBe('Name      X\n日本語    ok\nemoji 🎉  ok\ne\u0301         ok');
    expect(renderTable(['A', 'B'], [['a\tb', 'c']], plain)).toBe('A         B\na\\u0009b  c');
    expect(
      renderTable(
        ['A', 'B'],
        [
          ['\x1b[31mred\x1b[39m', 'z'],
          ['\u200bzw', 'q'],
          ['ﾊﾝｶｸ', 'h'],
          ['한국어', 'k'],
          ['\u00ad', 's'],
        ],
        plain,
      ),
    ).toBe('A       B\n\x1b[31mred\x1b[39m     z\n\u200bzw     q\nﾊﾝｶｸ    h\n한국어  k\n\u00ad       s');
  });

  it('renders 10,000 rows in linear time', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => [i + 1, `hook-${i}`, 'tool.pre_call', 'config', 'sync', 500]);
    const t0 = performance.now();
    const text = renderTable(['Order', 'Name', 'Event', 'Source', 'Mode', 'Priority'], rows, plain);
    const ms = performance.now() - t0;
    expect(text.split('\n')).toHaveLength(10_001);
    expect(text.split('\n')[10_000]).toBe('10000  hook-9999  tool.pre_call  config  sync  500');
    expect(ms).toBeLessThan(2000); // cli-table3 needed about 30 s here
  });
});

describe('displayWidth', () => {
  it('is the length of printable ASCII', () => {
    expect(displayWidth('hooks list')).toBe(10);
    expect(displayWidth('')).toBe(0);
  });
  it('skips escape codes', () => {
    expect(displayWidth('\u001b[1mbold\u001b[22m')).toBe(4);
  });
  it('counts emoji as string-width 4 does: two columns when shown as emoji, else one', () => {
    // [text, string-width 4.2.3]
    const cases: [string, number][] = [
      ['©', 1],
      ['©\uFE0F', 2],
      ['❤', 1],
      ['❤\uFE0F', 2],
      ['🎉', 2],
      ['👍🏽', 2],
      ['👨\u200D👩\u200D👧', 2],
      ['🏳\uFE0F\u200D🌈', 2],
      ['🇫🇷', 2],
      ['1\uFE0F\u20E3', 2],
      ['—…é', 3],
      ['中文', 4],
    ];
    for (const [text, width] of cases) expect([text, displayWidth(text)]).toEqual([text, width]);
  });
});

describe('tables fit the terminal (SPEC §7.4)', () => {
  const rows = [
    [1, 'block-secret-file-edits', 'tool.pre_call', 'a long reason that explains why this hook is blocked here'],
    [2, 'x', 'session.post_create', 'short'],
  ];
  const head = ['Order', 'Name', 'Event', 'Why'];

  it('cuts the widest text column first, with …, so that no line is wider than the limit', () => {
    const wide = renderTable(head, rows, plain, { maxWidth: null });
    const natural = Math.max(...wide.split('\n').map((l) => displayWidth(l)));
    expect(natural).toBeGreaterThan(100);
    const fitted = renderTable(head, rows, plain, { maxWidth: 80 });
    for (const line of fitted.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    expect(fitted).toContain('…');
    // the name column is not the widest: it stays whole while Why gives way
    expect(fitted).toContain('block-secret-file-edits');
    expect(fitted.split('\n')[1]).toMatch(/a long reason.*…$/);
  });

  it('a table that fits is unchanged; no limit means no cut', () => {
    const wide = renderTable(head, rows, plain, { maxWidth: null });
    expect(renderTable(head, rows, plain, { maxWidth: 500 })).toBe(wide);
    expect(wide).not.toContain('…');
  });

  it('keeps colour escapes balanced and counts wide characters as two columns', () => {
    const painted = renderTable(['Name', 'Why'], [['a', colour.paint('warning', 'x'.repeat(40))]], colour, {
      maxWidth: 20,
    });
    const line = painted.split('\n')[1]!;
    expect(displayWidth(line)).toBeLessThanOrEqual(20);
    expect(line.endsWith('\u001B[39m')).toBe(true);
    const cjk = renderTable(['Name', 'Why'], [['a', '漢字'.repeat(10)]], plain, { maxWidth: 20 });
    for (const l of cjk.split('\n')) expect(displayWidth(l)).toBeLessThanOrEqual(20);
  });

  it('takes the width from a terminal, else COLUMNS, else none', () => {
    expect(terminalWidth({ isTTY: true, columns: 80 }, { COLUMNS: '200' })).toBe(80);
    expect(terminalWidth({ isTTY: false }, { COLUMNS: '200' })).toBe(200);
    expect(terminalWidth({ isTTY: false }, {})).toBeUndefined();
    expect(terminalWidth({ isTTY: false }, { COLUMNS: 'abc' })).toBeUndefined();
  });
});

describe('cutFirst', () => {
  it('takes width from the columns named first, then from the widest', () => {
    const rows = [[1, 'a-rather-long-hook-name', 'a reason that is long enough to be cut first']];
    const t = renderTable(['Order', 'Name', 'Why'], rows, plain, { maxWidth: 50, cutFirst: [2] });
    expect(t).toContain('a-rather-long-hook-name');
    for (const l of t.split('\n')) expect(displayWidth(l)).toBeLessThanOrEqual(50);
    const squeezed = renderTable(['Order', 'Name', 'Why'], rows, plain, { maxWidth: 24, cutFirst: [2] });
    expect(squeezed).not.toContain('a-rather-long-hook-name'); // Why is at its floor: Name gives way too
  });
});

describe('identifiers, timestamps and columns left out (SPEC §7.4)', () => {
  const iso = (d: Date) => d.toISOString();
  // A local moment (shortened forms are local time), and its ISO form as records carry it.
  const now = new Date(2026, 11, 1, 18, 30, 0);
  const today = new Date(2026, 11, 1, 18, 20, 58, 123);
  const earlier = new Date(2026, 10, 30, 9, 5, 7);
  const lastYear = new Date(2025, 11, 1, 18, 20, 0);

  it('never cuts an identifier column: the free text gives way, then the other columns', () => {
    const rows = [
      ['project:PreToolUse:1.1', 'PreToolUse', 'applied', ''],
      ['project:PreToolUse:2.1', 'PreToolUse', 'failed', 'hook command failed: exit status 1 (stderr: 62 bytes)'],
    ];
    const head = [identifier('Hook'), identifier('Event'), 'Outcome', { head: 'Error', cutFirst: true }];
    const t = renderTable(head, rows, plain, { maxWidth: 51 });
    for (const l of t.split('\n')) expect(displayWidth(l)).toBeLessThanOrEqual(51);
    expect(t.split('\n')).toEqual([
      'Hook                    Event       Outcome  Error',
      'project:PreToolUse:1.1  PreToolUse  applied',
      'project:PreToolUse:2.1  PreToolUse  failed   hook …',
    ]);
    // a plain heading is cut as before
    expect(renderTable(['Hook', 'Event'], rows, plain, { maxWidth: 20 })).not.toContain('project:PreToolUse:1.1');
  });

  it('shortens timestamps whole before cutting anything: today, this year, another year', () => {
    expect(shortTimestamps(iso(today), now)).toBe('18:20:58');
    expect(shortTimestamps(iso(earlier), now)).toBe('11-30 09:05');
    expect(shortTimestamps(iso(lastYear), now)).toBe('2025-12-01 18:20');
    expect(shortTimestamps('-', now)).toBe('-');
    const rows = [
      ['hook-a', 'an error that could be cut', iso(today)],
      ['hook-b', '', iso(earlier)],
    ];
    const head = [identifier('Hook'), { head: 'Error', cutFirst: true }, { head: 'Recorded', timestamp: true }];
    const wide = renderTable(head, rows, plain, { maxWidth: 200, now });
    expect(wide).toContain(iso(today)); // it fits: the whole form
    const t = renderTable(head, rows, plain, { maxWidth: 52, now });
    expect(t.split('\n')).toEqual([
      'Hook    Error                       Recorded',
      'hook-a  an error that could be cut  18:20:58',
      'hook-b                              11-30 09:05',
    ]);
    // narrower still: the short times stay whole, the text is cut
    const cut = renderTable(head, rows, plain, { maxWidth: 36, now });
    expect(cut.split('\n')[1]).toBe('hook-a  an error that …  18:20:58');
  });

  it('leaves out columns by dropOrder when cutting is not enough, and says which', () => {
    const head = [
      identifier('Hook'),
      identifier('Event'),
      { head: 'Dialect', dropOrder: 1 },
      'Runs',
      { head: 'p95', dropOrder: 2 },
      'Max',
    ];
    const rows = [['project:UserPromptSubmit:1.1', 'UserPromptSubmit', 'claude', 1, '7 ms', '7 ms']];
    const t = renderTable(head, rows, plain, { maxWidth: 64 });
    expect(t.split('\n')).toEqual([
      'Hook                          Event             Runs  p95   Max',
      'project:UserPromptSubmit:1.1  UserPromptSubmit  1     7 ms  7 ms',
      '(left out to fit: Dialect; -o json has all)',
    ]);
    const t2 = renderTable(head, rows, plain, { maxWidth: 58 });
    expect(t2.split('\n')[0]).toBe('Hook                          Event             Runs  Max');
    expect(t2.split('\n')[2]).toBe('(left out to fit: Dialect, p95; -o json has all)');
    // identifiers alone wider than the terminal: the row exceeds rather than cut a name
    const t3 = renderTable(head, rows, plain, { maxWidth: 30 });
    expect(t3).toContain('project:UserPromptSubmit:1.1  UserPromptSubmit');
    // no limit: nothing left out
    expect(renderTable(head, rows, plain, { maxWidth: null })).toContain('Dialect');
  });
});

describe('StreamTable (runs --follow)', () => {
  const now = new Date(2026, 11, 1, 18, 30, 0);
  const head = [
    identifier('Hook'),
    identifier('Event'),
    'Outcome',
    { head: 'Duration', dropOrder: 1 },
    { head: 'Error', cutFirst: true, dropOrder: 2 },
    { head: 'Recorded', timestamp: true, dropOrder: 3 },
  ];
  const at = new Date(2026, 11, 1, 18, 20, 58).toISOString();

  it('fits each line to the terminal, times short when whole ones do not fit, names whole', () => {
    const t = new StreamTable(head, plain, { maxWidth: 80, minWidths: [22, 14, 9, 8, 0, 24], now: () => now });
    const lines = [
      t.header(),
      t.row(['project:PreToolUse:1.1', 'PreToolUse', 'applied', '18 ms', '', at]),
      t.row(['project:PreToolUse:2.1', 'PreToolUse', 'failed', '7 ms', 'hook command failed: exit status 1', at]),
    ];
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^Hook\s+Event\s+Outcome\s+Duration\s+Error\s+Recorded$/);
    expect(lines[1]).toMatch(/^project:PreToolUse:1\.1 {2}PreToolUse\s+applied\s+18 ms\s+18:20:58$/);
    expect(lines[2]).toMatch(/^project:PreToolUse:2\.1 {2}PreToolUse\s+failed\s+7 ms\s+hook com…\s+18:20:58$/);
    // the columns line up with the heading
    expect(lines[2]!.indexOf('18:20:58')).toBe(lines[0]!.indexOf('Recorded'));
    // a longer name widens its column; when that leaves a column out, the heading comes again
    const wide = t.row(['project:UserPromptSubmit:1.1', 'UserPromptSubmit', 'applied', '7 ms', '', at]);
    const [again, row] = wide.split('\n');
    expect(again).toMatch(/^Hook\s+Event\s+Outcome\s+Error\s+Recorded$/);
    expect(row).toMatch(/^project:UserPromptSubmit:1\.1 {2}UserPromptSubmit {2}applied\s+18:20:58$/);
    for (const l of wide.split('\n')) expect(displayWidth(l)).toBeLessThanOrEqual(80);
  });

  it('with room, times stay whole; with no limit (piped) nothing is cut', () => {
    const t = new StreamTable(head, plain, { maxWidth: 200, minWidths: [22, 14, 9, 8, 0, 24] });
    t.header();
    expect(t.row(['a', 'b', 'applied', '1 ms', '', at])).toMatch(/Z$/);
    const piped = new StreamTable(head, plain, { maxWidth: null });
    piped.header();
    const long = 'x'.repeat(300);
    expect(piped.row(['a', 'b', 'failed', '1 ms', long, at])).toMatch(
      new RegExp(`^a\\s+b\\s+failed\\s+1 ms\\s+${long}`),
    );
    expect(piped.row(['a-longer-name', 'b', 'failed', '1 ms', '', at])).not.toContain('\n'); // no heading again
  });
});
