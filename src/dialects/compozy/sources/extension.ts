// Extension manifests (SPEC §2.4): `extension.toml` (preferred) or `extension.json` at the
// extension root, `[extension]` naming it and hooks in `[[resources.hooks]]`. The other tables
// (`[capabilities]`, `[permissions]`, `[subprocess]`, …) belong to the runtime. Hooks run in
// the extension root; their command is resolved inside it (root-path.ts) after templates.
import { basename, join } from 'node:path';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import type { Declaration } from '../../../declarations/model.js';
import { normaliseCompozyHook, type RawHook } from '../rules/declaration.js';
import { makeDiagnostic, readSourceFile, type Locator, type Position } from '../../../declarations/source-file.js';
import { isTable, markDuplicateNames, parseTomlDocument, positionOf, type ParsedDocument } from './common.js';
import { parseJsonWithPositions } from '../../../declarations/json-locate.js';
import { resolveExtensionCommand } from './root-path.js';

export interface ExtensionFile {
  file: string;
  root: string;
  /** `[extension] name`; unset when missing, and then none of the file's hooks are kept. */
  name?: string;
  raws: RawHook[];
  diagnostics: Diagnostic[];
}

/** Parses one manifest; `root` is the extension folder, `env` the invoking environment. */
export function parseExtensionManifest(
  text: string,
  file: string,
  root: string,
  format: 'toml' | 'json',
  env: NodeJS.ProcessEnv,
): ExtensionFile {
  const result: ExtensionFile = { file, root, raws: [], diagnostics: [] };
  const parsed = format === 'toml' ? parseTomlDocument(text, file, 'extension') : parseJson(text, file);
  if (!parsed.ok) {
    result.diagnostics.push(parsed.diagnostic);
    return result;
  }
  const { data, locate } = parsed;
  const error = (code: 'invalid_section' | 'extension_name_required', message: string, at: Position): void => {
    result.diagnostics.push(makeDiagnostic('error', code, message, file, at, { source: 'extension' }));
  };

  const extension = data.extension;
  const name = isTable(extension) && typeof extension.name === 'string' ? extension.name.trim() : '';
  result.diagnostics.push(...checkManifestIdentity(data, locate, file));
  const resources = data.resources;
  if (isTable(resources)) result.diagnostics.push(...checkResourceKeys(resources, locate, file));
  const hooks = isTable(resources) ? resources.hooks : undefined;
  if (resources !== undefined && !isTable(resources))
    error('invalid_section', 'resources must be a table', positionOf(locate, ['resources']));
  if (hooks !== undefined && !Array.isArray(hooks)) {
    error(
      'invalid_section',
      'resources.hooks must be an array of tables ([[resources.hooks]])',
      positionOf(locate, ['resources', 'hooks']),
    );
  }
  if (name === '') {
    // Without a name the hooks have no identity (metadata `extension = <name>`): they are still
    // checked, under the folder's name, but the loader keeps none of them (`name` stays unset).
    error(
      'extension_name_required',
      'extension manifest has no [extension] name; its hooks are not loaded',
      positionOf(locate, ['extension', 'name']),
    );
  } else result.name = name;
  if (Array.isArray(hooks)) {
    hooks.forEach((value, i) => {
      const path = ['resources', 'hooks', i];
      result.raws.push({
        source: 'extension',
        file,
        position: positionOf(locate, path),
        path,
        locate,
        value,
        cwd: root,
        extension: { name: result.name ?? basename(root), root, env },
      });
    });
  }
  result.diagnostics.push(...markDuplicateNames(result.raws));
  return result;
}

/**
 * The keys CompozyOS reads under `[resources]` (upstream `ResourcesConfig`); it rejects any other
 * (`resources.bundles` was removed, `resources.widgets` never existed). scripts/gen-schemas.mjs
 * (plain Node, cannot import TypeScript) mirrors this list; validate-schemas.test.ts holds them equal.
 */
export const RESOURCE_KEYS: ReadonlySet<string> = new Set([
  'skills',
  'loops',
  'agents',
  'automation',
  'layouts',
  'hooks',
  'tools',
  'command_groups',
  'cmd_palette',
  'mcp_servers',
  'publish',
]);

/** The keys CompozyOS reads under `[extension]` (upstream `manifestCore`). */
const IDENTITY_KEYS: ReadonlySet<string> = new Set([
  'name',
  'version',
  'description',
  'min_compozy_version',
  'requires_env',
]);

/** Upstream's wording: `extension: invalid manifest field "<f>"[ (value "<v>")]: <why>`. */
function manifestFieldMessage(field: string, why: string, value?: string): string {
  const shown = value !== undefined && value.trim() !== '' ? ` (value ${JSON.stringify(value)})` : '';
  return `extension: invalid manifest field ${JSON.stringify(field)}${shown}: ${why}`;
}

function checkResourceKeys(resources: Record<string, unknown>, locate: Locator, file: string): Diagnostic[] {
  return Object.keys(resources)
    .filter((key) => !RESOURCE_KEYS.has(key))
    .map((key) => {
      const field = `resources.${key}`;
      const message = manifestFieldMessage(field, `unknown manifest field ${JSON.stringify(field)}`);
      return makeDiagnostic('error', 'invalid_manifest_field', message, file, positionOf(locate, ['resources', key]), {
        source: 'extension',
      });
    });
}

/**
 * `[extension]` as CompozyOS validates it: `version` is required and a semantic version (so
 * `latest` is not), `min_compozy_version`, when given, is one too. A `min_*` key CompozyOS does
 * not know is an error: the runtime reads only `min_compozy_version`, so a typo there leaves the
 * extension with no minimum and the runtime refuses it (see docs/DESIGN.md).
 */
function checkManifestIdentity(data: Record<string, unknown>, locate: Locator, file: string): Diagnostic[] {
  const extension = data.extension;
  if (!isTable(extension)) return [];
  const out: Diagnostic[] = [];
  const invalid = (field: string, why: string, value?: string): void => {
    const message = manifestFieldMessage(field, why, value);
    out.push(
      makeDiagnostic(
        'error',
        'invalid_manifest_field',
        message,
        file,
        positionOf(locate, ['extension', field], positionOf(locate, ['extension'])),
        {
          source: 'extension',
        },
      ),
    );
  };
  const version = extension.version;
  if (version === undefined || (typeof version === 'string' && version.trim() === ''))
    invalid('version', 'value is required');
  // A value of another type is the schema's to report (validate): it names the type.
  else if (typeof version === 'string' && !isSemanticVersion(version))
    invalid('version', 'must be a semantic version', version);
  const min = extension.min_compozy_version;
  if (typeof min === 'string' && min.trim() !== '' && !isSemanticVersion(min)) {
    invalid('min_compozy_version', 'must be a semantic version', min);
  }
  for (const key of Object.keys(extension)) {
    if (key.startsWith('min_') && !IDENTITY_KEYS.has(key)) {
      invalid(key, `unknown manifest field ${JSON.stringify(key)}; CompozyOS reads only "min_compozy_version"`);
    }
  }
  return out;
}

/**
 * Semantic versioning as CompozyOS parses it: an optional leading `v`, MAJOR.MINOR.PATCH without
 * leading zeros, then an optional `-prerelease` and `+build` of dot-separated identifiers.
 */
export function isSemanticVersion(value: string): boolean {
  return SEMVER.test(value.trim().replace(/^[vV]/, ''));
}

const SEMVER = (() => {
  const num = '(?:0|[1-9][0-9]*)';
  const pre = `(?:${num}|[0-9]*[A-Za-z-][0-9A-Za-z-]*)`;
  const build = '[0-9A-Za-z-]+';
  return new RegExp(`^${num}\\.${num}\\.${num}(?:-${pre}(?:\\.${pre})*)?(?:\\+${build}(?:\\.${build})*)?$`);
})();

function parseJson(text: string, file: string): ParsedDocument {
  const parsed = parseJsonWithPositions(text);
  if (!parsed.ok) {
    return {
      ok: false,
      diagnostic: makeDiagnostic(
        'error',
        'json_parse_error',
        `invalid JSON: ${parsed.message.replace(/\s+/g, ' ')}`,
        file,
        parsed.position,
        {
          source: 'extension',
        },
      ),
    };
  }
  if (!isTable(parsed.value)) {
    return {
      ok: false,
      diagnostic: makeDiagnostic(
        'error',
        'invalid_section',
        'extension.json must hold a JSON object',
        file,
        { line: 1 },
        { source: 'extension' },
      ),
    };
  }
  return { ok: true, data: parsed.value, locate: parsed.locate };
}

/** Reads `<root>/extension.toml`, else `<root>/extension.json`; undefined when neither exists. */
export async function loadExtensionRoot(root: string, env: NodeJS.ProcessEnv): Promise<ExtensionFile | undefined> {
  for (const format of ['toml', 'json'] as const) {
    const file = join(root, `extension.${format}`);
    const read = await readSourceFile(file, 'extension');
    if (read.kind === 'missing') continue;
    if (read.kind === 'bad') return { file, root, raws: [], diagnostics: [read.diagnostic] };
    return parseExtensionManifest(read.text, file, root, format, env);
  }
  return undefined;
}

/**
 * Normalises an extension hook, then resolves its command inside the extension root. A command
 * that escapes the root is an error; one that does not exist (yet) only a warning.
 */
export async function normaliseExtensionHook(
  raw: RawHook,
): Promise<{ declaration?: Declaration; diagnostics: Diagnostic[] }> {
  const result = normaliseCompozyHook(raw);
  const { declaration, command } = result;
  if (declaration === undefined || command === undefined || raw.extension === undefined) return result;
  const root = raw.extension.root;
  const resolved = await resolveExtensionCommand(command.written, declaration.command, root);
  const at = positionOf(raw.locate, [...raw.path, ...command.at], raw.position);
  const extra = { source: raw.source, hook: declaration.name ?? undefined };
  if (!resolved.ok) {
    return {
      diagnostics: [
        ...result.diagnostics,
        makeDiagnostic('error', 'path_escapes_root', resolved.message, raw.file, at, extra),
      ],
    };
  }
  declaration.command = resolved.command;
  if (resolved.missing) {
    const message = `hooks: hook ${JSON.stringify(declaration.name)} command ${JSON.stringify(resolved.command)} does not exist in extension root ${JSON.stringify(root)}; firing it will fail`;
    result.diagnostics.push(makeDiagnostic('warning', 'command_not_found', message, raw.file, at, extra));
  }
  return { declaration, diagnostics: result.diagnostics };
}
