import { describe, expect, it } from 'vitest';
import type { Style } from '../../src/cli/colour.js';
import type { Diagnostic } from '../../src/declarations/diagnostics.js';
import { annotation, escapeData, escapeProperty, formatGithub } from '../../src/validate/format-github.js';
import { formatHuman } from '../../src/validate/format-human.js';
import { SARIF_SCHEMA, formatSarif } from '../../src/validate/format-sarif.js';
import { buildReport, type ValidateReport } from '../../src/validate/report.js';

const plain = { color: (_style: Style, text: string) => text };
const tagged = { color: (style: Style, text: string) => `<${style}>${text}</${style}>` };

function sample(): ValidateReport {
  const diagnostics: Diagnostic[] = [
    {
      severity: 'error',
      code: 'schema_enum',
      message: 'hooks.declarations[0].mode: must be equal to one of the allowed values (sync, async)',
      file: '/r/.compozy/config.toml',
      line: 12,
      column: 3,
      source: 'config',
      hook: 'gate',
    },
    {
      severity: 'warning',
      code: 'retired_matcher_key',
      message: 'retired matcher key "compaction_reason"',
      file: '/r/.compozy/config.toml',
      line: 140,
      source: 'config',
    },
    {
      severity: 'error',
      code: 'invalid_event',
      message: 'hooks: invalid hook event "foo.bar"',
      file: '/home/u/.compozy/skills/x/SKILL.md',
      line: 7,
      source: 'skill',
      hook: 'x',
    },
  ];
  return buildReport(
    ['/r/.compozy/config.toml', '/home/u/.compozy/skills/x/SKILL.md', '/r/ok.toml'],
    diagnostics,
    '/r',
  );
}

describe('formatHuman', () => {
  it('prints one aligned line per diagnostic, grouped by file, then the summary', () => {
    expect(formatHuman(sample(), plain)).toBe(
      [
        '.compozy/config.toml:12:3  error    schema_enum  hooks.declarations[0].mode: must be equal to one of the allowed values (sync, async)  [gate]',
        '.compozy/config.toml:140   warning  retired_matcher_key  retired matcher key "compaction_reason"',
        '',
        '/home/u/.compozy/skills/x/SKILL.md:7  error  invalid_event  hooks: invalid hook event "foo.bar"  [x]',
        '',
        '3 files, 2 errors, 1 warning',
      ].join('\n'),
    );
  });

  it('colours through the function it is given, after padding', () => {
    const lines = formatHuman(sample(), tagged).split('\n');
    expect(lines[0]).toBe(
      '.compozy/config.toml:12:3  <error>error  </error>  <dim>schema_enum</dim>  hooks.declarations[0].mode: must be equal to one of the allowed values (sync, async)  <accent>[gate]</accent>',
    );
    expect(lines[1]).toContain('<warning>warning</warning>');
    expect(lines.at(-1)).toBe('3 files, <error>2 errors</error>, <warning>1 warning</warning>');
  });

  it('prints only the summary for a clean run', () => {
    const clean = buildReport(['/r/a.toml'], [], '/r');
    expect(formatHuman(clean, plain)).toBe('1 file, 0 errors, 0 warnings');
    expect(formatHuman(clean, tagged)).toBe('<ok>1 file, 0 errors, 0 warnings</ok>');
  });
});

describe('formatGithub', () => {
  it('writes one workflow command per diagnostic', () => {
    expect(formatGithub(sample()).split('\n')).toEqual([
      '::error file=.compozy/config.toml,line=12,col=3,title=schema_enum::hooks.declarations[0].mode: must be equal to one of the allowed values (sync, async)',
      '::warning file=.compozy/config.toml,line=140,title=retired_matcher_key::retired matcher key "compaction_reason"',
      '::error file=/home/u/.compozy/skills/x/SKILL.md,line=7,title=invalid_event::hooks: invalid hook event "foo.bar"',
    ]);
    expect(formatGithub(buildReport([], [], '/r'))).toBe('');
  });

  it('escapes messages and properties as GitHub requires', () => {
    expect(escapeData('100% done\r\nnext: a,b')).toBe('100%25 done%0D%0Anext: a,b');
    expect(escapeProperty('dir,a:b/100%.toml\n')).toBe('dir%2Ca%3Ab/100%25.toml%0A');
    const line = annotation({
      severity: 'warning',
      code: 'odd',
      message: 'line one\nline two 50%',
      file: 'we,ird:name.toml',
      line: 1,
    });
    expect(line).toBe('::warning file=we%2Cird%3Aname.toml,line=1,title=odd::line one%0Aline two 50%25');
    expect(line.split('\n')).toHaveLength(1);
  });
});

describe('formatSarif', () => {
  it('writes a SARIF 2.1.0 log with one rule per code and one result per diagnostic', () => {
    const log = JSON.parse(formatSarif(sample(), '1.2.3', { informationUri: 'https://example.test/hookctl' })) as {
      $schema: string;
      version: string;
      runs: {
        tool: {
          driver: {
            name: string;
            version: string;
            informationUri?: string;
            rules: { id: string; shortDescription: { text: string } }[];
          };
        };
        results: {
          ruleId: string;
          ruleIndex: number;
          level: string;
          message: { text: string };
          locations: {
            physicalLocation: {
              artifactLocation: { uri: string; uriBaseId?: string };
              region: { startLine: number; startColumn?: number };
            };
          }[];
          properties?: { hook: string };
        }[];
      }[];
    };
    expect(log.$schema).toBe(SARIF_SCHEMA);
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0]!;
    expect(run.tool.driver).toMatchObject({
      name: 'hookctl',
      version: '1.2.3',
      informationUri: 'https://example.test/hookctl',
    });
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(['schema_enum', 'retired_matcher_key', 'invalid_event']);
    for (const rule of run.tool.driver.rules) expect(rule.shortDescription.text.length).toBeGreaterThan(0);
    expect(run.results).toHaveLength(3);
    for (const result of run.results) {
      expect(['error', 'warning']).toContain(result.level);
      expect(run.tool.driver.rules[result.ruleIndex]!.id).toBe(result.ruleId);
      expect(result.message.text.length).toBeGreaterThan(0);
      const region = result.locations[0]!.physicalLocation.region;
      expect(Number.isInteger(region.startLine) && region.startLine >= 1).toBe(true);
    }
    const [first, second, third] = run.results;
    expect(first!.locations[0]!.physicalLocation).toEqual({
      artifactLocation: { uri: '.compozy/config.toml', uriBaseId: '%SRCROOT%' },
      region: { startLine: 12, startColumn: 3 },
    });
    expect(first!.properties).toEqual({ hook: 'gate' });
    expect(second!.level).toBe('warning');
    expect(second!.locations[0]!.physicalLocation.region).toEqual({ startLine: 140 });
    expect(third!.locations[0]!.physicalLocation.artifactLocation).toEqual({
      uri: 'file:///home/u/.compozy/skills/x/SKILL.md',
    });
  });

  it('describes codes from the code tables, else in words', () => {
    const report = buildReport(
      [],
      [
        { severity: 'error', code: 'schema_type', message: 'm', file: '/r/a', line: 1 },
        { severity: 'error', code: 'invalid_event', message: 'm', file: '/r/a', line: 2 },
        { severity: 'error', code: 'made_up_code', message: 'm', file: '/r/a', line: 3 },
        { severity: 'error', code: 'made_up_code', message: 'm', file: '/r/a', line: 4 },
      ],
      '/r',
    );
    const log = JSON.parse(formatSarif(report, '0.1.0')) as {
      runs: {
        tool: { driver: { informationUri?: string; rules: { id: string; shortDescription: { text: string } }[] } };
      }[];
    };
    const driver = log.runs[0]!.tool.driver;
    expect(driver.informationUri).toBeUndefined();
    expect(driver.rules.map((r) => [r.id, r.shortDescription.text])).toEqual([
      ['schema_type', 'A value has the wrong JSON type for its key (the shipped JSON Schema).'],
      [
        'invalid_event',
        'The event is not in the CompozyOS event catalog of the selected release (another release that has it is named).',
      ],
      ['made_up_code', 'Made up code'],
    ]);
  });

  it('encodes relative URIs with forward slashes and keeps lines 1-based', () => {
    const report: ValidateReport = {
      files: [],
      errors: 1,
      warnings: 0,
      diagnostics: [
        { severity: 'error', code: 'c', message: 'm', file: 'dir with space/a#b.toml', line: 0, column: 0 },
      ],
    };
    const log = JSON.parse(formatSarif(report, '0.1.0')) as {
      runs: {
        results: { locations: { physicalLocation: { artifactLocation: { uri: string }; region: object } }[] }[];
      }[];
    };
    const location = log.runs[0]!.results[0]!.locations[0]!.physicalLocation;
    expect(location.artifactLocation.uri).toBe('dir%20with%20space/a%23b.toml');
    expect(location.region).toEqual({ startLine: 1, startColumn: 1 });
  });
});
