// Reading one test file (SPEC §8): YAML or JSON parsed with positions, checked against the shipped
// schema (schemas/hooktest.schema.json, through validate's schema machinery), then the rules a
// schema cannot say. Every problem is a Diagnostic with file:line:col, so a bad test file is
// reported exactly as `hooks validate` reports a bad declaration file; nothing throws.
import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { Diagnostic } from '../declarations/diagnostics.js';
import { parseJsonWithPositions } from '../declarations/json-locate.js';
import { parseJsonWithPositions as parseStrictJson } from '../declarations/json.js';
import { yamlLocator } from '../declarations/frontmatter.js';
import { readSourceFile, type Locator, type PathSeg, type Position } from '../declarations/source-file.js';
import { schemaDiagnostics } from '../validate/schema-check.js';
import { didYouMean } from '../matching/suggest.js';
import type { HooktestCode } from './codes.js';
import { parseTextPattern } from './expect.js';
import { readCaseItems } from './yaml-cases.js';
import type { Expectations, FilePosition, TestCase, TestFile, TextPattern } from './model.js';

export interface LoadedTestFile {
  /** undefined when the file has errors. */
  testFile?: TestFile;
  diagnostics: Diagnostic[];
}

type Parsed = { ok: true; document: unknown; locate: Locator } | { ok: false; diagnostics: Diagnostic[] };

export async function loadTestFile(file: string): Promise<LoadedTestFile> {
  const read = await readSourceFile(file);
  if (read.kind === 'bad') return { diagnostics: [read.diagnostic] };
  if (read.kind === 'missing') {
    return { diagnostics: [{ severity: 'error', code: 'file_unreadable', message: 'file not found', file, line: 1 }] };
  }
  const parsed = file.toLowerCase().endsWith('.json') ? parseJson(read.text, file) : parseYaml(read.text, file);
  if (!parsed.ok) return { diagnostics: parsed.diagnostics };
  const schema = schemaDiagnostics('hooktest', parsed.document, parsed.locate, file);
  if (schema.length > 0) return { diagnostics: schema.map(withKeyHint) };
  return new FileReader(file, parsed.document as RawFile, parsed.locate).read();
}

function parseJson(text: string, file: string): Parsed {
  const parsed = parseJsonDocument(text);
  if (parsed.ok) return { ok: true, document: parsed.value, locate: parsed.locate };
  return {
    ok: false,
    diagnostics: [diagnostic('json_parse_error', `invalid JSON: ${parsed.message}`, file, parsed.position)],
  };
}

/**
 * JSON with positions. On a syntax error the strict parser (the one cosh files go through) says
 * what and where: V8's own message quotes the input and, on Node 20, often has no offset.
 */
function parseJsonDocument(text: string): ReturnType<typeof parseJsonWithPositions> {
  const parsed = parseJsonWithPositions(text);
  if (parsed.ok) return parsed;
  const strict = parseStrictJson(text);
  if (strict.ok) return parsed;
  return {
    ok: false,
    message: strict.error.message,
    position: { line: strict.error.line, column: strict.error.column },
  };
}

function parseYaml(text: string, file: string): Parsed {
  // A valid file of the usual shape is read one case at a time, so memory stays that of one case
  // (issue 24); anything else, and every file with an error, is parsed whole as below.
  const byCase = readCaseItems(text);
  if (byCase !== undefined) return { ok: true, ...byCase };
  const lineCounter = new LineCounter();
  let doc: ReturnType<typeof parseDocument>;
  try {
    doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  } catch (err) {
    // The parser recurses: indentation nested deep enough runs out of stack (brackets are
    // refused before, by readSourceFile).
    return {
      ok: false,
      diagnostics: [
        diagnostic('yaml_parse_error', `invalid YAML: ${firstLine((err as Error).message)}`, file, { line: 1 }),
      ],
    };
  }
  const toFile = (offset: number): Position => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  // One diagnostic per line: the parser often reports one mistake several times on its line.
  const seen = new Set<number>();
  const diagnostics: Diagnostic[] = [];
  for (const err of doc.errors) {
    const at = toFile(err.pos[0]);
    if (seen.has(at.line)) continue;
    seen.add(at.line);
    diagnostics.push(diagnostic('yaml_parse_error', `invalid YAML: ${firstLine(err.message)}`, file, at));
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  try {
    return { ok: true, document: doc.toJS({ maxAliasCount: 100 }), locate: yamlLocator(doc, toFile) };
  } catch (err) {
    return {
      ok: false,
      diagnostics: [
        diagnostic('yaml_parse_error', `invalid YAML: ${firstLine((err as Error).message)}`, file, { line: 1 }),
      ],
    };
  }
}

// The shapes the schema has already checked.
interface RawFile {
  name?: string;
  dialect?: string;
  workspace?: string;
  env?: Record<string, string>;
  cases: RawCase[];
}
interface RawCase {
  name: string;
  event: string;
  dialect?: string;
  payload?: Record<string, unknown>;
  payload_file?: string;
  hooks?: string[];
  dry_run?: boolean;
  trust_all?: boolean;
  expect?: Record<string, unknown>;
}

/** What `${HOOKTEST_DIR}` stands for in a test file's `env` values: the folder holding the file. */
export const HOOKTEST_DIR = '${HOOKTEST_DIR}';

/**
 * A test file's `env`, with `${HOOKTEST_DIR}` in its values replaced by the file's folder, so a
 * file can point a variable at files beside it whatever the current directory (the demo's
 * Claude Code settings: `CLAUDE_CONFIG_DIR: ${HOOKTEST_DIR}/../../home/.claude`). Nothing else
 * in a value is expanded.
 */
export function fileEnv(env: Record<string, string>, dir: string): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replaceAll(HOOKTEST_DIR, dir)]));
}

/** The keys of schemas/hooktest.schema.json at each level (a unit test holds them equal). */
export const TEST_FILE_KEYS = {
  file: ['name', 'workspace', 'dialect', 'env', 'cases'],
  case: ['name', 'event', 'dialect', 'payload', 'payload_file', 'hooks', 'dry_run', 'trust_all', 'expect'],
  expect: ['verdict', 'exit_code', 'reason', 'ran', 'not_ran', 'outcomes', 'payload', 'context', 'max_duration_ms'],
} as const;

/** The schema's `<where>: unknown key "<k>"` (src/validate/schema-check.ts), with the closest keys. */
function withKeyHint(d: Diagnostic): Diagnostic {
  if (d.code !== 'schema_additional_properties') return d;
  const m = /^(.*): unknown key ("(?:[^"\\]|\\.)*")$/.exec(d.message);
  if (!m) return d;
  const where = m[1]!;
  const known =
    where === 'document'
      ? TEST_FILE_KEYS.file
      : /^cases\[\d+\]$/.test(where)
        ? TEST_FILE_KEYS.case
        : /^cases\[\d+\]\.expect$/.test(where)
          ? TEST_FILE_KEYS.expect
          : undefined;
  if (known === undefined) return d;
  return { ...d, message: d.message + didYouMean(JSON.parse(m[2]!) as string, known) };
}

/** The keys a dry run can check: it runs nothing, so only which hooks would run. */
const DRY_RUN_KEYS = new Set(['ran', 'not_ran']);

class FileReader {
  private readonly diagnostics: Diagnostic[] = [];

  constructor(
    private readonly file: string,
    private readonly raw: RawFile,
    private readonly locate: Locator,
  ) {}

  async read(): Promise<LoadedTestFile> {
    const workspace = this.raw.workspace === undefined ? undefined : await this.workspace(this.raw.workspace);
    const cases: TestCase[] = [];
    for (const [i, raw] of this.raw.cases.entries()) {
      const testCase = await this.testCase(raw, ['cases', i]);
      if (testCase) cases.push(testCase);
    }
    if (this.diagnostics.length > 0) return { diagnostics: this.diagnostics };
    const testFile: TestFile = {
      file: this.file,
      name: this.raw.name ?? basename(this.file),
      env: fileEnv(this.raw.env ?? {}, dirname(this.file)),
      cases,
    };
    if (workspace !== undefined) testFile.workspace = workspace;
    return { testFile, diagnostics: [] };
  }

  private async workspace(written: string): Promise<string | undefined> {
    const dir = resolve(dirname(this.file), written);
    let isDir: boolean;
    try {
      isDir = (await stat(dir)).isDirectory();
    } catch {
      this.error('hooktest_workspace', `workspace "${written}" does not exist (${dir})`, ['workspace']);
      return undefined;
    }
    if (!isDir) this.error('hooktest_workspace', `workspace "${written}" is not a directory (${dir})`, ['workspace']);
    return dir;
  }

  private async testCase(raw: RawCase, at: PathSeg[]): Promise<TestCase | undefined> {
    const errorsBefore = this.diagnostics.length;
    let payload: Record<string, unknown> = raw.payload ?? {};
    if (raw.payload !== undefined && raw.payload_file !== undefined) {
      this.error('hooktest_payload_conflict', 'give either payload or payload_file, not both', [...at, 'payload_file']);
    } else if (raw.payload_file !== undefined) {
      payload = (await this.payloadFile(raw.payload_file, [...at, 'payload_file'])) ?? {};
    }
    const expect =
      raw.expect === undefined ? undefined : this.expectations(raw.expect, [...at, 'expect'], raw.dry_run === true);
    if (this.diagnostics.length > errorsBefore) return undefined;

    const testCase: TestCase = {
      name: raw.name,
      event: raw.event,
      payload,
      dryRun: raw.dry_run === true,
      position: this.position(at),
      eventPosition: this.position([...at, 'event']),
      namePositions: this.namePositions(raw, at),
    };
    if (expect?.verdict !== undefined) testCase.verdictPosition = this.position([...at, 'expect', 'verdict']);
    const dialect = raw.dialect ?? this.raw.dialect;
    if (dialect !== undefined) testCase.dialect = dialect;
    if (raw.hooks !== undefined) testCase.hooks = [...raw.hooks];
    if (raw.trust_all === true) testCase.trustAll = true;
    if (expect !== undefined && Object.keys(expect).length > 0) testCase.expect = expect;
    return testCase;
  }

  private async payloadFile(written: string, at: PathSeg[]): Promise<Record<string, unknown> | undefined> {
    const path = resolve(dirname(this.file), written);
    const read = await readSourceFile(path);
    if (read.kind === 'missing') {
      this.error('hooktest_payload_file', `payload_file "${written}" does not exist (${path})`, at);
      return undefined;
    }
    if (read.kind === 'bad') {
      this.error('hooktest_payload_file', `payload_file "${written}": ${read.diagnostic.message}`, at);
      return undefined;
    }
    if (read.text.trim() === '') return {}; // an empty payload is {} (SPEC §6)
    const parsed = parseJsonDocument(read.text);
    if (!parsed.ok) {
      // The problem is in the payload file: point there (SPEC §7.4).
      this.diagnostics.push(
        diagnostic('hooktest_payload_file', `invalid JSON: ${parsed.message}`, path, parsed.position),
      );
      return undefined;
    }
    const value = parsed.value;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
      this.error('hooktest_payload_file', `payload_file "${written}" must hold a JSON object, got ${kind}`, at);
      return undefined;
    }
    return value as Record<string, unknown>;
  }

  private expectations(raw: Record<string, unknown>, at: PathSeg[], dryRun: boolean): Expectations {
    if (dryRun) {
      for (const key of Object.keys(raw)) {
        if (!DRY_RUN_KEYS.has(key)) {
          this.error(
            'hooktest_dry_run_expect',
            `a dry_run case checks only ran and not_ran; "${key}" would never be checked`,
            [...at, key],
          );
        }
      }
    }
    const out: Expectations = {};
    for (const [key, value] of Object.entries(raw)) {
      switch (key) {
        case 'reason':
        case 'context': {
          const pattern = this.textPattern(value as string, [...at, key]);
          if (pattern) out[key] = pattern;
          break;
        }
        case 'ran':
        case 'not_ran':
          out[key] = [...(value as string[])];
          break;
        case 'outcomes':
          out.outcomes = { ...(value as Record<string, string>) };
          break;
        case 'payload':
          out.payload = value as Record<string, unknown>;
          break;
        case 'verdict':
          out.verdict = value as string;
          break;
        case 'exit_code':
        case 'max_duration_ms':
          out[key] = value as number;
          break;
      }
    }
    return out;
  }

  private textPattern(written: string, at: PathSeg[]): TextPattern | undefined {
    const pattern = parseTextPattern(written);
    if (pattern.kind === 'regex') {
      try {
        new RegExp(pattern.source, pattern.flags);
      } catch (err) {
        this.error('hooktest_invalid_regex', `${(err as Error).message}`, at);
        return undefined;
      }
    }
    return pattern;
  }

  private namePositions(raw: RawCase, at: PathSeg[]): TestCase['namePositions'] {
    const out: TestCase['namePositions'] = [];
    const list = (names: string[] | undefined, path: PathSeg[]) =>
      names?.forEach((name, j) => out.push({ name, position: this.position([...path, j]) }));
    list(raw.hooks, [...at, 'hooks']);
    const expect = raw.expect ?? {};
    list(expect.ran as string[] | undefined, [...at, 'expect', 'ran']);
    list(expect.not_ran as string[] | undefined, [...at, 'expect', 'not_ran']);
    for (const name of Object.keys((expect.outcomes as Record<string, string> | undefined) ?? {})) {
      out.push({ name, position: this.position([...at, 'expect', 'outcomes', name]) });
    }
    return out;
  }

  /** Where `path` is written, else its nearest located ancestor, else line 1. */
  private position(path: PathSeg[]): FilePosition {
    for (let n = path.length; n >= 0; n--) {
      const found = this.locate(path.slice(0, n));
      if (found !== undefined)
        return found.column === undefined ? { line: found.line } : { line: found.line, column: found.column };
    }
    return { line: 1 };
  }

  private error(code: HooktestCode, message: string, at: PathSeg[]): void {
    this.diagnostics.push(diagnostic(code, message, this.file, this.position(at)));
  }
}

function diagnostic(code: string, message: string, file: string, at: Position): Diagnostic {
  const d: Diagnostic = { severity: 'error', code, message, file, line: at.line };
  if (at.column !== undefined) d.column = at.column;
  return d;
}

function firstLine(message: string): string {
  const nl = message.indexOf('\n');
  return (nl === -1 ? message : message.slice(0, nl)).trim();
}
