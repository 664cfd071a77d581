import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/declarations/diagnostics.js';
import { relativeToCwd } from '../../src/validate/relative-path.js';
import { buildReport, formatJson, jsonDiagnostic } from '../../src/validate/report.js';

const d = (file: string, line: number, extra: Partial<Diagnostic> = {}): Diagnostic => ({
  severity: 'error',
  code: 'unknown_field',
  message: `problem at ${line}`,
  file,
  line,
  ...extra,
});

describe('relativeToCwd', () => {
  it('is relative inside the cwd', () => {
    expect(relativeToCwd('/work/repo/.compozy/config.toml', '/work/repo')).toBe('.compozy/config.toml');
    expect(relativeToCwd('/work/repo/..hidden/x.toml', '/work/repo')).toBe('..hidden/x.toml');
    expect(relativeToCwd('/work/repo/a/../b.toml', '/work/repo/')).toBe('b.toml');
  });

  it('is absolute outside the cwd', () => {
    expect(relativeToCwd('/home/u/.compozy/config.toml', '/work/repo')).toBe('/home/u/.compozy/config.toml');
    expect(relativeToCwd('/work/repo-other/x.toml', '/work/repo')).toBe('/work/repo-other/x.toml');
    expect(relativeToCwd('/work/x.toml', '/work/repo')).toBe('/work/x.toml');
  });

  it('reads a relative file against the cwd', () => {
    expect(relativeToCwd('sub/x.toml', '/work/repo')).toBe('sub/x.toml');
    expect(relativeToCwd('../x.toml', '/work/repo')).toBe('/work/x.toml');
  });
});

describe('buildReport', () => {
  it('sorts by file, line and column, keeps ties in order, and counts', () => {
    const diagnostics = [
      d('/r/b.toml', 3),
      d('/r/a.toml', 9, { severity: 'warning', code: 'duplicate_hook_name' }),
      d('/r/a.toml', 2, { column: 5, message: 'second' }),
      d('/r/a.toml', 2, { message: 'first' }),
      d('/r/a.toml', 2, { column: 5, message: 'third' }),
    ];
    const report = buildReport(['/r/a.toml', '/r/b.toml', '/r/a.toml', '/r/c.toml'], diagnostics, '/r');
    expect(report.files).toEqual(['a.toml', 'b.toml', 'c.toml']);
    expect(report.errors).toBe(4);
    expect(report.warnings).toBe(1);
    expect(report.diagnostics.map((x) => `${x.file}:${x.line}:${x.column ?? ''} ${x.message}`)).toEqual([
      'a.toml:2: first',
      'a.toml:2:5 second',
      'a.toml:2:5 third',
      'a.toml:9: problem at 9',
      'b.toml:3: problem at 3',
    ]);
  });

  it('keeps files outside the cwd absolute and does not change its input', () => {
    const input = [d('/elsewhere/x.toml', 1)];
    const report = buildReport(['/elsewhere/x.toml'], input, '/r');
    expect(report.diagnostics[0]!.file).toBe('/elsewhere/x.toml');
    expect(report.files).toEqual(['/elsewhere/x.toml']);
    const inside = buildReport([], [d('/r/x.toml', 1)], '/r');
    expect(inside.diagnostics[0]!.file).toBe('x.toml');
    expect(input[0]!.file).toBe('/elsewhere/x.toml');
  });
});

describe('formatJson', () => {
  it('writes {files, errors, warnings, diagnostics} with the same keys on every diagnostic', () => {
    const report = buildReport(
      ['/r/a.toml'],
      [
        d('/r/a.toml', 1),
        d('/r/a.toml', 2, {
          severity: 'warning',
          column: 4,
          source: 'config',
          hook: 'gate',
          code: 'retired_matcher_key',
        }),
      ],
      '/r',
    );
    const parsed = JSON.parse(formatJson(report)) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['files', 'errors', 'warnings', 'diagnostics']);
    expect(parsed).toEqual({
      files: ['a.toml'],
      errors: 1,
      warnings: 1,
      diagnostics: [
        {
          severity: 'error',
          code: 'unknown_field',
          message: 'problem at 1',
          file: 'a.toml',
          line: 1,
          column: null,
          source: null,
          hook: null,
        },
        {
          severity: 'warning',
          code: 'retired_matcher_key',
          message: 'problem at 2',
          file: 'a.toml',
          line: 2,
          column: 4,
          source: 'config',
          hook: 'gate',
        },
      ],
    });
    for (const diagnostic of parsed.diagnostics as object[]) {
      expect(Object.keys(diagnostic)).toEqual([
        'severity',
        'code',
        'message',
        'file',
        'line',
        'column',
        'source',
        'hook',
      ]);
    }
  });

  it('writes an empty report', () => {
    expect(JSON.parse(formatJson(buildReport([], [], '/r')))).toEqual({
      files: [],
      errors: 0,
      warnings: 0,
      diagnostics: [],
    });
  });

  it('keeps the key order of jsonDiagnostic whatever the input order', () => {
    const shuffled = { hook: 'h', line: 3, file: 'f', code: 'c', severity: 'warning', message: 'm' } as Diagnostic;
    expect(Object.keys(jsonDiagnostic(shuffled))).toEqual([
      'severity',
      'code',
      'message',
      'file',
      'line',
      'column',
      'source',
      'hook',
    ]);
  });
});
