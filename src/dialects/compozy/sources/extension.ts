// Extension manifests (SPEC §2.4): `extension.toml` (preferred) or `extension.json` at the
// extension root, `[extension]` naming it and hooks in `[[resources.hooks]]`. The other tables
// (`[capabilities]`, `[permissions]`, `[subprocess]`, …) belong to the runtime. Hooks run in
// the extension root; their command is resolved inside it (root-path.ts) after templates.
import { basename, join } from 'node:path';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import type { Declaration } from '../../../declarations/model.js';
import { normaliseCompozyHook, type RawHook } from '../rules/declaration.js';
import { makeDiagnostic, readSourceFile, type Position } from '../../../declarations/source-file.js';
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
  const resources = data.resources;
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
