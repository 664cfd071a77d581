// The `hooks validate` use case: every source (or only the files named), the rule diagnostics of
// each dialect's loaders and the structural diagnostics of the shipped JSON Schemas (schemas/),
// in one report. A schema diagnostic that repeats a rule diagnostic is dropped: the rule's message
// is the one SPEC quotes. Formatting lives in src/validate/.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Diagnostic } from '../declarations/diagnostics.js';
import { selectDialects } from '../dialects/registry.js';
import type { Dialect, FileValidation } from '../dialects/types.js';
import { ExitCode, HookctlError } from '../errors.js';
import type { Locations } from '../paths.js';
import type { SchemaKind } from '../validate/validators.generated.js';

export interface ValidationInput {
  loc: Locations;
  env: NodeJS.ProcessEnv;
  /** Files named on the command line; empty = every source. */
  files: string[];
  /** Only this dialect's sources and verdicts. */
  dialect?: string;
}

export interface ValidationOutcome {
  files: string[];
  diagnostics: Diagnostic[];
}

/** One file: the dialect that read it, and which of its schemas describes it (when one does). */
interface CheckedFile {
  file: string;
  dialect: Dialect;
  schema: string | undefined;
}

export async function validateSources(input: ValidationInput): Promise<ValidationOutcome> {
  if (input.files.length === 0) {
    const parts = await Promise.all(
      selectDialects(input.dialect).map(async (dialect) => ({
        dialect,
        catalog: await dialect.loadCatalog(input.loc, input.env),
      })),
    );
    const checked = parts.flatMap(({ dialect, catalog }) =>
      catalog.files.map((file) => ({ file, dialect, schema: dialect.schemaKindOf?.(file, input.loc) })),
    );
    const rules = parts.flatMap((p) => p.catalog.diagnostics);
    return { files: checked.map((c) => c.file), diagnostics: await withSchemaDiagnostics(rules, checked) };
  }
  const files = input.files.map((f) => resolve(f));
  for (const [i, f] of files.entries()) {
    const st = statSync(f, { throwIfNoEntry: false });
    if (!st) throw new HookctlError('file_not_found', `no such file "${input.files[i]}"`, ExitCode.usage);
    if (st.isDirectory()) {
      throw new HookctlError(
        'file_is_directory',
        `"${input.files[i]}" is a directory, not a declaration file`,
        ExitCode.usage,
      );
    }
  }
  const rules: Diagnostic[] = [];
  const checked: CheckedFile[] = [];
  for (const file of files) {
    const one = await validateOneFile(file, input);
    rules.push(...one.diagnostics);
    checked.push({ file, dialect: one.dialect, schema: one.schema });
  }
  return { files, diagnostics: await withSchemaDiagnostics(rules, checked) };
}

/**
 * A named file goes to every dialect, in registry order, that claims it; the one that claims
 * unknown files (compozy) is asked last and reports a file nobody claims.
 */
async function validateOneFile(file: string, input: ValidationInput): Promise<FileValidation & { dialect: Dialect }> {
  const { readSourceFile } = await import('../declarations/source-file.js');
  const read = await readSourceFile(file);
  const text = read.kind === 'text' ? read.text : undefined;
  const chosen = selectDialects(input.dialect);
  const ordered = [...chosen.filter((d) => !d.claimsUnknownFiles), ...chosen.filter((d) => d.claimsUnknownFiles)];
  // Every dialect that claims the file judges it (a SKILL.md can hold compozy and claude hooks,
  // claude.md §7); the one that claims unknown files speaks only when another claimed nothing or
  // it reads the file as its own.
  const verdicts: (FileValidation & { dialect: Dialect })[] = [];
  for (const dialect of ordered) {
    const verdict = await dialect.validateFile(file, text, input.loc, input.env, {
      forced: input.dialect !== undefined,
    });
    if (!verdict) continue;
    const unknown = verdict.diagnostics.some((d) => d.code === 'unknown_file_kind');
    if (dialect.claimsUnknownFiles && verdicts.length > 0 && unknown) continue;
    verdicts.push({ ...verdict, dialect });
  }
  if (verdicts.some((v) => v.exclusive)) verdicts.splice(0, verdicts.length, ...verdicts.filter((v) => v.exclusive));
  if (verdicts.length > 0) {
    const withSchema = verdicts.find((v) => v.schema !== undefined);
    return {
      dialect: (withSchema ?? verdicts[0]!).dialect,
      diagnostics: verdicts.flatMap((v) => v.diagnostics),
      ...(withSchema ? { schema: withSchema.schema } : {}),
    };
  }
  // No dialect reads every file kind: say so rather than report nothing.
  const message = `cannot tell what kind of declaration file this is (no dialect reads it)`;
  return {
    dialect: ordered[0]!,
    diagnostics: [{ severity: 'error', code: 'unknown_file_kind', message, file, line: 1 }],
  };
}

/** The rule diagnostics, plus each file's schema diagnostics that no rule diagnostic covers. */
async function withSchemaDiagnostics(rules: Diagnostic[], files: readonly CheckedFile[]): Promise<Diagnostic[]> {
  const schema: Diagnostic[] = [];
  const checked = new Set<string>();
  for (const f of files) {
    if (f.schema === undefined || checked.has(f.file)) continue;
    checked.add(f.file);
    schema.push(...(await schemaCheck({ ...f, schema: f.schema })));
  }
  return withoutRepeats([...rules, ...uncoveredSchemaDiagnostics(rules, schema)]);
}

/**
 * One diagnostic per problem: a file read twice (the home folder used as the workspace makes a
 * global file its own overlay) must not report its problems twice.
 */
function withoutRepeats(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.file}\0${d.line}\0${d.column ?? ''}\0${d.code}\0${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Runs the schema of `kind` over one file; nothing when the file does not parse (a rule said so). */
async function schemaCheck(f: CheckedFile & { schema: string }): Promise<Diagnostic[]> {
  const [{ readSourceFile }, { schemaDiagnostics }] = await Promise.all([
    import('../declarations/source-file.js'),
    import('../validate/schema-check.js'),
  ]);
  const read = await readSourceFile(f.file);
  if (read.kind !== 'text') return [];
  const parsed = await f.dialect.schemaDocument?.(f.schema, f.file, read.text);
  if (parsed === undefined) return [];
  return schemaDiagnostics(f.schema as SchemaKind, parsed.document, parsed.locate, f.file, parsed.layout);
}

/**
 * Schema diagnostics that say something the rules did not. One is dropped when a rule
 * diagnostic of the same file sits at the same place, or, for a missing key (which has no place
 * of its own), when a rule diagnostic of the same file and hook reports that key missing. The
 * place is the line; in JSON also the column, because a JSON file may be written on one line
 * (in TOML and YAML a line holds one key, and the rules may point at its table instead).
 */
export function uncoveredSchemaDiagnostics(rules: readonly Diagnostic[], schema: readonly Diagnostic[]): Diagnostic[] {
  const lines = new Set(rules.map((r) => `${r.file}\0${r.line}`));
  const places = new Set(rules.map((r) => `${r.file}\0${r.line}\0${r.column ?? ''}`));
  const missing = new Set(rules.filter((r) => MISSING_KEY_CODES.has(r.code)).map((r) => `${r.file}\0${r.hook ?? ''}`));
  return schema.filter((s) => {
    const byColumn = s.column !== undefined && s.file.toLowerCase().endsWith('.json');
    if (byColumn ? places.has(`${s.file}\0${s.line}\0${s.column}`) : lines.has(`${s.file}\0${s.line}`)) return false;
    if (s.code === 'schema_required' && missing.has(`${s.file}\0${s.hook ?? ''}`)) return false;
    return true;
  });
}

/** Rule codes that report a key as missing (name, event, command, an extension name). */
const MISSING_KEY_CODES: ReadonlySet<string> = new Set([
  'name_required',
  'skill_name_required',
  'invalid_event',
  'command_required',
  'executor_kind_required',
  'extension_name_required',
]);
