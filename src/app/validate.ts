// The `hooks validate` use case: every source (or only the files named), the rule diagnostics of
// the loaders and the structural diagnostics of the shipped JSON Schemas (schemas/), in one
// report. A schema diagnostic that repeats a rule diagnostic is dropped: the rule's message is
// the one SPEC quotes. Formatting lives in src/validate/.
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { loadCatalog } from './catalog.js';
import type { Diagnostic } from '../declarations/diagnostics.js';
import { ExitCode, HookctlError } from '../errors.js';
import { compozyGlobalConfig, compozyWorkspaceConfig, coshConfigLayers, type Locations } from '../paths.js';
import type { SchemaKind } from '../validate/validators.generated.js';

export interface ValidationInput {
  loc: Locations;
  env: NodeJS.ProcessEnv;
  /** Files named on the command line; empty = every source. */
  files: string[];
}

export interface ValidationOutcome {
  files: string[];
  diagnostics: Diagnostic[];
}

/** One file: what the loaders said about it, and which schema describes it (when one does). */
interface CheckedFile {
  file: string;
  schema: SchemaKind | undefined;
}

export async function validateSources(input: ValidationInput): Promise<ValidationOutcome> {
  if (input.files.length === 0) {
    const catalog = await loadCatalog(input.loc, { env: input.env });
    const checked = catalog.files.map((file) => ({ file, schema: schemaKindOfSource(file, input.loc) }));
    return { files: catalog.files, diagnostics: await withSchemaDiagnostics(catalog.diagnostics, checked) };
  }
  const files = input.files.map((f) => resolve(f));
  for (const [i, f] of files.entries()) {
    const st = await stat(f).catch(() => undefined);
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
    checked.push({ file, schema: one.schema });
  }
  return { files, diagnostics: await withSchemaDiagnostics(rules, checked) };
}

async function validateOneFile(
  file: string,
  input: ValidationInput,
): Promise<{ diagnostics: Diagnostic[]; schema: SchemaKind | undefined }> {
  const [{ readSourceFile }, { detectCompozyFileKind, validateCompozyFile }, { detectCoshFileKind, validateCoshFile }] =
    await Promise.all([
      import('../declarations/source-file.js'),
      import('../dialects/compozy/sources/load.js'),
      import('../dialects/cosh/load.js'),
    ]);
  const read = await readSourceFile(file);
  const text = read.kind === 'text' ? read.text : '';
  if (detectCoshFileKind(file, text)) {
    const cosh = await validateCoshFile(file, input.loc, input.env);
    return { diagnostics: cosh.diagnostics, schema: cosh.kind === 'cosh_config' ? 'cosh-config' : 'cosh-extension' };
  }
  const kind = read.kind === 'text' ? detectCompozyFileKind(file, text) : undefined;
  const compozy = await validateCompozyFile(file, input.loc, input.env);
  return { diagnostics: compozy.diagnostics, schema: kind === undefined ? undefined : COMPOZY_SCHEMA[kind] };
}

const COMPOZY_SCHEMA = {
  config: 'compozy-config',
  extension_toml: 'compozy-extension',
  extension_json: 'compozy-extension',
  agent: 'compozy-agent',
  skill: 'compozy-skill',
} as const satisfies Record<string, SchemaKind>;

/** Every-source mode: the kind of a file the loaders read is told by where it was found. */
export function schemaKindOfSource(file: string, loc: Locations): SchemaKind | undefined {
  const path = resolve(file);
  if (path === resolve(compozyGlobalConfig(loc)) || path === resolve(compozyWorkspaceConfig(loc)))
    return 'compozy-config';
  if (coshConfigLayers(loc).some((layer) => resolve(layer) === path)) return 'cosh-config';
  switch (basename(path)) {
    case 'cosh-extension.json':
      return 'cosh-extension';
    case 'extension.toml':
    case 'extension.json':
      return 'compozy-extension';
    case 'AGENT.md':
      return 'compozy-agent';
    case 'SKILL.md':
      return 'compozy-skill';
  }
  return undefined;
}

/** The rule diagnostics, plus each file's schema diagnostics that no rule diagnostic covers. */
async function withSchemaDiagnostics(rules: Diagnostic[], files: readonly CheckedFile[]): Promise<Diagnostic[]> {
  const schema: Diagnostic[] = [];
  const checked = new Set<string>();
  for (const f of files) {
    if (f.schema === undefined || checked.has(f.file)) continue;
    checked.add(f.file);
    schema.push(...(await schemaCheck(f.file, f.schema)));
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
async function schemaCheck(file: string, kind: SchemaKind): Promise<Diagnostic[]> {
  const [{ readSourceFile }, { schemaDiagnostics }] = await Promise.all([
    import('../declarations/source-file.js'),
    import('../validate/schema-check.js'),
  ]);
  const read = await readSourceFile(file);
  if (read.kind !== 'text') return [];
  // Most skills declare no hooks: skip those without parsing them again (thousands stay fast).
  if (kind === 'compozy-skill' && !read.text.includes('hooks')) return [];
  const parsed = await parseForSchema(kind, file, read.text);
  if (parsed === undefined) return [];
  // A skill is ours only through metadata.compozy.hooks; the rest of its front matter (a skill
  // without a name included) is the runtime's business.
  if (kind === 'compozy-skill' && !declaresSkillHooks(parsed.document)) return [];
  return schemaDiagnostics(kind, parsed.document, parsed.locate, file);
}

async function parseForSchema(kind: SchemaKind, file: string, text: string) {
  switch (kind) {
    case 'compozy-config':
    case 'compozy-extension':
    case 'compozy-agent':
    case 'compozy-skill': {
      const { parseCompozyDocument } = await import('../dialects/compozy/sources/load.js');
      const compozyKind =
        kind === 'compozy-extension'
          ? file.toLowerCase().endsWith('.json')
            ? 'extension_json'
            : 'extension_toml'
          : COMPOZY_KIND_OF_SCHEMA[kind];
      return parseCompozyDocument(compozyKind, file, text);
    }
    case 'cosh-config': {
      const [{ parse }, { locateTomlKeys }] = await Promise.all([
        import('smol-toml'),
        import('../declarations/toml-locate.js'),
      ]);
      try {
        return { document: parse(text) as Record<string, unknown>, locate: locateTomlKeys(text).locate };
      } catch {
        return undefined;
      }
    }
    case 'cosh-extension': {
      const { parseJsonWithPositions } = await import('../declarations/json-locate.js');
      const parsed = parseJsonWithPositions(text);
      return parsed.ok ? { document: parsed.value, locate: parsed.locate } : undefined;
    }
  }
}

const COMPOZY_KIND_OF_SCHEMA = {
  'compozy-config': 'config',
  'compozy-agent': 'agent',
  'compozy-skill': 'skill',
} as const;

function declaresSkillHooks(document: unknown): boolean {
  const metadata = isRecord(document) ? document.metadata : undefined;
  const compozy = isRecord(metadata) ? metadata.compozy : undefined;
  return isRecord(compozy) && compozy.hooks !== undefined && compozy.hooks !== null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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
