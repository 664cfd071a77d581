// `hooks validate --format sarif`: SARIF 2.1.0 for code-scanning uploads. One run; one rule per
// diagnostic code used; one result per diagnostic. Relative files are URIs against %SRCROOT%
// (the directory validate ran in); files outside it are absolute file: URIs.
import { isAbsolute, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIAGNOSTIC_CODES } from '../declarations/codes.js';
import { dialects } from '../dialects/registry.js';
import type { Diagnostic } from '../declarations/diagnostics.js';
import type { ValidateReport } from './report.js';
import { SCHEMA_CODES } from './schema-codes.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

export interface SarifOptions {
  informationUri?: string;
  /** One-line description of a code for its rule; default: the code tables, else the code in words. */
  describeCode?: (code: string) => string | undefined;
}

interface SarifRule {
  id: string;
  shortDescription: { text: string };
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: 'error' | 'warning';
  message: { text: string };
  locations: {
    physicalLocation: {
      artifactLocation: { uri: string; uriBaseId?: string };
      region: { startLine: number; startColumn?: number };
    };
  }[];
  properties?: { hook: string };
}

export function formatSarif(report: ValidateReport, toolVersion: string, options: SarifOptions = {}): string {
  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  const results: SarifResult[] = report.diagnostics.map((d) => {
    let index = ruleIndex.get(d.code);
    if (index === undefined) {
      index = rules.length;
      ruleIndex.set(d.code, index);
      rules.push({
        id: d.code,
        shortDescription: { text: options.describeCode?.(d.code) ?? knownMeaning(d.code) ?? codeInWords(d.code) },
      });
    }
    return result(d, index);
  });
  const driver = {
    name: 'hookctl',
    version: toolVersion,
    ...(options.informationUri === undefined ? {} : { informationUri: options.informationUri }),
    rules,
  };
  return JSON.stringify({ $schema: SARIF_SCHEMA, version: '2.1.0', runs: [{ tool: { driver }, results }] }, null, 2);
}

function result(d: Diagnostic, ruleIndex: number): SarifResult {
  const region: { startLine: number; startColumn?: number } = { startLine: positive(d.line) };
  if (d.column !== undefined) region.startColumn = positive(d.column);
  const out: SarifResult = {
    ruleId: d.code,
    ruleIndex,
    level: d.severity,
    message: { text: d.message },
    locations: [{ physicalLocation: { artifactLocation: artifactLocation(d.file), region } }],
  };
  if (d.hook !== undefined) out.properties = { hook: d.hook };
  return out;
}

function artifactLocation(file: string): { uri: string; uriBaseId?: string } {
  if (isAbsolute(file)) return { uri: pathToFileURL(file).href };
  // On POSIX a backslash is part of a name, not a separator.
  const uri = file
    .split(sep === '\\' ? /[\\/]/ : '/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return { uri, uriBaseId: '%SRCROOT%' };
}

/** SARIF lines and columns are 1-based. */
function positive(n: number): number {
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

function knownMeaning(code: string): string | undefined {
  const tables: Readonly<Record<string, string>>[] = [
    DIAGNOSTIC_CODES,
    ...dialects().flatMap((d) => (d.diagnosticCodes ? [d.diagnosticCodes] : [])),
    SCHEMA_CODES,
  ];
  for (const table of tables) if (Object.hasOwn(table, code)) return table[code];
  return undefined;
}

/** `hook_secret_env` -> `Hook secret env`. */
function codeInWords(code: string): string {
  const words = code.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
