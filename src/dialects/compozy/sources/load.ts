// Every CompozyOS declaration source (SPEC §1, §2.4) → Declarations + Diagnostics.
//
// Sources are read in parallel; each file's problems stay with that file and never stop the
// others. Then the cross-file rules apply: the workspace config.toml replaces global
// declarations of the same name, and marketplace skill hooks not on the global allowlist are
// blocked. Declarations come back in load order; ordering.ts puts them in dispatch order.
import { readdirSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import type { Declaration } from '../../../declarations/model.js';
import type { CompozySkillSource as SkillSource } from '../model.js';
import { invalidDeclaration, normaliseCompozyHook, rawHookName, type RawHook } from '../rules/declaration.js';
import {
  compozyAdditionalSkillsDirs,
  compozyAgentDirs,
  compozyExtensionsDir,
  compozyGlobalConfig,
  compozyUserSkillsDir,
  compozyWorkspaceConfig,
  compozyWorkspaceSkillsDir,
  type Locations,
} from '../../../paths.js';
import { parseFrontMatter, splitFrontMatter } from '../../../declarations/frontmatter.js';
import {
  makeDiagnostic,
  readSourceFile,
  readSourceFileSync,
  type Locator,
  type PathSeg,
  type SourceText,
} from '../../../declarations/source-file.js';
import { parseAgentFile } from './agent.js';
import { isTable, mapConcurrent, parseTomlDocument, positionOf } from './common.js';
import { scriptProblem } from '../../../declarations/command-script.js';
import { parseConfigToml, type ConfigFile } from './config.js';
import { detectCompozyFileKind, type CompozyFileKind } from './detect.js';
import { loadExtensionRoot, normaliseExtensionHook, parseExtensionManifest } from './extension.js';
import { parseJsonWithPositions } from '../../../declarations/json-locate.js';
import {
  blockedWhy,
  marketplaceAllowed,
  parseSkillFile,
  readMarketplaceSidecar,
  skillFileEscape,
  type MarketplaceIdentity,
} from './skill.js';

export { detectCompozyFileKind, type CompozyFileKind };

export interface CompozyLoad {
  declarations: Declaration[];
  diagnostics: Diagnostic[];
  /** Every declaration file that was read (missing ones are not listed). */
  files: string[];
}

/** One file's contribution before normalisation. */
interface FileResult {
  file: string;
  raws: RawHook[];
  diagnostics: Diagnostic[];
  /** false: the file's hooks are checked but none is kept (an extension without a name). */
  keep?: boolean;
  /** Marketplace skills: the sidecar identity checked against the global allowlist. */
  marketplace?: MarketplaceIdentity;
}

/** How many files are read at once. */
const READ_CONCURRENCY = 64;

export async function loadCompozySources(loc: Locations, env: NodeJS.ProcessEnv): Promise<CompozyLoad> {
  // Run from the home folder, the workspace config.toml is the global one: read it once.
  const sameConfig = resolve(compozyWorkspaceConfig(loc)) === resolve(compozyGlobalConfig(loc));
  const [globalConfig, workspaceConfig, extensions, agents, skills] = await Promise.all([
    loadConfig(compozyGlobalConfig(loc), loc.workspace, true),
    sameConfig ? undefined : loadConfig(compozyWorkspaceConfig(loc), loc.workspace, false),
    loadExtensions(loc, env),
    loadAgents(loc),
    loadSkills(loc),
  ]);
  if (globalConfig && workspaceConfig) applyOverlay(globalConfig.raws, workspaceConfig.raws);
  applyMarketplaceAllowlist(skills, globalConfig?.allowedMarketplaceHooks ?? []);
  const results: FileResult[] = [
    ...(globalConfig ? [globalConfig] : []),
    ...(workspaceConfig ? [workspaceConfig] : []),
    ...extensions,
    ...agents,
    ...skills,
  ];
  return normaliseFiles(results);
}

/**
 * Validates one file named on the command line (`hooks validate FILE`): its kind is told by name
 * and content; an AGENT.md's agent and a SKILL.md's skill come from the parent folder.
 */
export async function validateCompozyFile(
  file: string,
  loc: Locations,
  env: NodeJS.ProcessEnv,
): Promise<{ declarations: Declaration[]; diagnostics: Diagnostic[] }> {
  const path = resolve(file);
  const read = await readSourceFile(path);
  if (read.kind === 'missing') {
    return {
      declarations: [],
      diagnostics: [
        makeDiagnostic('error', 'file_unreadable', 'cannot read file: it does not exist', path, { line: 1 }),
      ],
    };
  }
  if (read.kind === 'bad') return { declarations: [], diagnostics: [read.diagnostic] };
  const kind = detectCompozyFileKind(path, read.text);
  if (kind === undefined) {
    const message = `cannot tell what kind of declaration file ${JSON.stringify(basename(path))} is (expected config.toml, extension.toml, extension.json, AGENT.md or SKILL.md)`;
    return {
      declarations: [],
      diagnostics: [makeDiagnostic('error', 'unknown_file_kind', message, path, { line: 1 })],
    };
  }
  const result = await parseOneFile(kind, path, read.text, loc, env, read.bom === true);
  const { declarations, diagnostics } = await normaliseFiles([result]);
  return { declarations, diagnostics };
}

async function parseOneFile(
  kind: CompozyFileKind,
  path: string,
  text: string,
  loc: Locations,
  env: NodeJS.ProcessEnv,
  bom: boolean,
): Promise<FileResult> {
  switch (kind) {
    case 'config':
      return parseConfigToml(text, path, loc.workspace, { global: path === resolve(compozyGlobalConfig(loc)) });
    case 'extension_toml':
    case 'extension_json': {
      const ext = parseExtensionManifest(text, path, dirname(path), kind === 'extension_toml' ? 'toml' : 'json', env);
      return { ...ext, keep: ext.name !== undefined };
    }
    case 'agent':
      return parseAgentFile(text, path, basename(dirname(path)), loc.workspace, { bom });
    case 'skill': {
      const skillDir = dirname(path);
      const escape = skillFileEscape(skillDir, path);
      if (escape) return { file: path, raws: [], diagnostics: [escape] };
      const located = skillSourceOf(dirname(skillDir), loc);
      // As when loading: a sidecar makes a user skill a marketplace install.
      const sidecar = located === 'user' ? readMarketplaceSidecar(skillDir) : undefined;
      const skillSource: SkillSource = sidecar ? 'marketplace' : located;
      const skill: FileResult = parseSkillFile(text, path, { skillSource, cwd: loc.workspace, thorough: true, bom });
      if (sidecar) {
        if (sidecar.diagnostic) skill.diagnostics.push(sidecar.diagnostic);
        skill.marketplace = sidecar.identity;
        const global = await loadConfig(compozyGlobalConfig(loc), loc.workspace, true);
        applyMarketplaceAllowlist([skill], global?.allowedMarketplaceHooks ?? []);
      }
      return skill;
    }
  }
}

/** A parsed declaration file and where each of its keys is written. */
export interface CompozyDocument {
  document: Record<string, unknown>;
  locate: Locator;
}

/**
 * The parsed document of one compozy file, for the JSON Schema check of `hooks validate`: the
 * whole file (config, extension) or its front matter (AGENT.md, SKILL.md). Undefined when there
 * is nothing to check: no front matter, or a file that does not parse (the loaders report that).
 */
export function parseCompozyDocument(kind: CompozyFileKind, path: string, text: string): CompozyDocument | undefined {
  switch (kind) {
    case 'config':
    case 'extension_toml': {
      const parsed = parseTomlDocument(text, path, kind === 'config' ? 'config' : 'extension');
      return parsed.ok ? { document: parsed.data, locate: parsed.locate } : undefined;
    }
    case 'extension_json': {
      const parsed = parseJsonWithPositions(text);
      return parsed.ok && isTable(parsed.value) ? { document: parsed.value, locate: parsed.locate } : undefined;
    }
    case 'agent':
    case 'skill': {
      const split = splitFrontMatter(text);
      if (split.kind !== 'block') return undefined;
      const fm = parseFrontMatter(split.block, path);
      return fm.data !== undefined && fm.diagnostics.length === 0
        ? { document: fm.data, locate: fm.locate }
        : undefined;
    }
  }
}

/** The skill source a skills folder stands for; a folder hookctl does not know counts as user. */
function skillSourceOf(skillsDir: string, loc: Locations): SkillSource {
  const dir = resolve(skillsDir);
  if (dir === resolve(loc.bundledSkillsDir)) return 'bundled';
  if (dir === resolve(compozyWorkspaceSkillsDir(loc))) return 'workspace';
  if (compozyAdditionalSkillsDirs(loc).some((d) => resolve(d) === dir)) return 'additional';
  return 'user';
}

// ---- cross-file rules ----

/** A workspace declaration whose name matches a global one replaces it wholesale (SPEC §2.1). */
function applyOverlay(global: RawHook[], workspace: RawHook[]): void {
  const replacing = new Map<string, RawHook>();
  for (const raw of workspace) {
    const name = rawHookName(raw.value);
    if (name !== undefined && raw.status === undefined) replacing.set(name, raw);
  }
  for (const raw of global) {
    const name = rawHookName(raw.value);
    const by = name === undefined ? undefined : replacing.get(name);
    if (by !== undefined && raw.status === undefined) {
      raw.status = {
        status: 'overridden',
        why: `replaced by the workspace declaration at ${by.file}:${by.position.line}`,
      };
    }
  }
}

/** Marketplace skill hooks run only when the global allowlist names the skill (SPEC §2.4). */
function applyMarketplaceAllowlist(skills: FileResult[], allowlist: readonly string[]): void {
  for (const skill of skills) {
    if (skill.marketplace === undefined || marketplaceAllowed(skill.marketplace, allowlist)) continue;
    const why = blockedWhy(skill.marketplace);
    for (const raw of skill.raws) raw.status = { status: 'blocked', why };
  }
}

async function normaliseFiles(results: FileResult[]): Promise<CompozyLoad> {
  const declarations: Declaration[] = [];
  const diagnostics: Diagnostic[] = [];
  const files: string[] = [];
  for (const result of results) {
    files.push(result.file);
    const fileDiagnostics = [...result.diagnostics];
    for (const raw of result.raws) {
      const normalised = raw.extension ? await normaliseExtensionHook(raw) : normaliseCompozyHook(raw);
      if (normalised.declaration && !raw.extension) {
        const at = (normalised as { command?: { at: readonly PathSeg[] } }).command?.at;
        const missing = commandNotFound(normalised.declaration, raw, at);
        if (missing !== undefined) normalised.diagnostics.push(missing);
      }
      fileDiagnostics.push(...normalised.diagnostics);
      if (result.keep === false) continue;
      if (normalised.declaration) {
        // Loaded, but it fails each time it fires: list --all, info and fire --dry-run say why.
        const notices = normalised.diagnostics.filter((d) => d.code === 'command_not_found');
        if (notices.length > 0) {
          normalised.declaration.diagnostics = notices;
          normalised.declaration.why ??= notices[0]!.message;
        }
        declarations.push(normalised.declaration);
      } else {
        // Kept with its errors, so that "why did my hook not fire" has an answer (SPEC §7.2).
        const errors = normalised.diagnostics.filter((d) => d.severity === 'error');
        if (errors.length > 0) declarations.push(invalidDeclaration(raw, errors));
      }
    }
    // Within a file, diagnostics read top to bottom (sort is stable).
    fileDiagnostics.sort((a, b) => a.line - b.line);
    diagnostics.push(...fileDiagnostics);
  }
  return { declarations, diagnostics, files };
}

/**
 * command_not_found for an active subprocess hook whose command is a path (it has a `/`: a bare
 * name is a PATH lookup, not checked) that is not an executable file, resolved against the
 * hook's folder as exec.LookPath does (SPEC §3.4).
 */
function commandNotFound(d: Declaration, raw: RawHook, at: readonly PathSeg[] | undefined): Diagnostic | undefined {
  if (d.status !== 'active' || d.executor_kind !== 'subprocess' || !d.command.includes('/')) return undefined;
  const path = resolve(d.cwd, d.command);
  const problem = scriptProblem(path);
  if (problem === undefined) return undefined;
  const what =
    problem === 'missing' ? 'does not exist' : problem === 'directory' ? 'is a directory' : 'is not executable';
  return makeDiagnostic(
    'warning',
    'command_not_found',
    `hooks: hook ${JSON.stringify(d.name)} command ${JSON.stringify(path)} ${what}; firing it will fail`,
    raw.file,
    positionOf(raw.locate, [...raw.path, ...(at ?? ['command'])], raw.position),
    { source: raw.source, hook: d.name ?? undefined },
  );
}

// ---- reading the sources ----

async function loadConfig(file: string, cwd: string, global: boolean): Promise<ConfigFile | undefined> {
  const read = await readSourceFile(file, 'config');
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'bad') return { file, raws: [], diagnostics: [read.diagnostic] };
  return parseConfigToml(read.text, file, cwd, { global });
}

/**
 * Entries of `dir` that may be folders (links, and entries whose type the file system does not
 * report, included; files and hidden entries skipped), sorted; none when `dir` is missing.
 */
async function listFolders(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => !e.isFile() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
}

async function loadExtensions(loc: Locations, env: NodeJS.ProcessEnv): Promise<FileResult[]> {
  const dir = compozyExtensionsDir(loc);
  const roots = (await listFolders(dir)).map((name) => join(dir, name));
  const loaded = await mapConcurrent(roots, READ_CONCURRENCY, (root) => loadExtensionRoot(root, env));
  return loaded.filter((ext) => ext !== undefined).map((ext) => ({ ...ext, keep: ext.name !== undefined }));
}

/** Agent folders in lookup order; the first AGENT.md found per agent name wins (SPEC §1). */
async function loadAgents(loc: Locations): Promise<FileResult[]> {
  const dirs = compozyAgentDirs(loc);
  const listed = await Promise.all(dirs.map(listFolders));
  const candidates = dirs.flatMap((dir, i) => listed[i]!.map((name) => ({ name, file: join(dir, name, 'AGENT.md') })));
  const reads = candidates.map((c) => readSourceFileSync(c.file, 'agent_definition'));
  const winners = new Map<string, { file: string; read: Exclude<SourceText, { kind: 'missing' }> }>();
  candidates.forEach((c, i) => {
    const read = reads[i]!;
    if (read.kind !== 'missing' && !winners.has(c.name)) winners.set(c.name, { file: c.file, read });
  });
  return [...winners.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, { file, read }]) =>
      read.kind === 'bad'
        ? { file, raws: [], diagnostics: [read.diagnostic] }
        : parseAgentFile(read.text, file, name, loc.workspace, { bom: read.bom === true }),
    );
}

function markMarketplace(skill: FileResult, skillDir: string): void {
  const sidecar = readMarketplaceSidecar(skillDir);
  if (sidecar === undefined) return;
  if (sidecar.diagnostic) skill.diagnostics.push(sidecar.diagnostic);
  skill.marketplace = sidecar.identity;
  for (const raw of skill.raws) raw.skillSource = 'marketplace';
}

/** Skill folders by skill source (SPEC §2.4); a folder listed twice is read once. */
async function loadSkills(loc: Locations): Promise<FileResult[]> {
  const roots: { dir: string; source: SkillSource }[] = [
    { dir: loc.bundledSkillsDir, source: 'bundled' },
    { dir: compozyUserSkillsDir(loc), source: 'user' },
    ...compozyAdditionalSkillsDirs(loc).map((dir) => ({ dir, source: 'additional' as const })),
    { dir: compozyWorkspaceSkillsDir(loc), source: 'workspace' },
  ];
  const seen = new Set<string>();
  const unique = roots.filter((r) => {
    const key = resolve(r.dir);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const listed = await Promise.all(unique.map((r) => listFolders(r.dir)));
  const candidates = unique.flatMap((r, i) => {
    // join() once per folder, not twice per skill (it normalises every call): a folder entry's
    // name is one plain segment, so it can stand in for the `x` of join(dir, 'x').
    const base = join(r.dir, 'x').slice(0, -1);
    return listed[i]!.map((name) => {
      const skillDir = base + name;
      return { skillDir, file: skillDir + sep + 'SKILL.md', source: r.source };
    });
  });
  // Folders are listed in parallel; the files themselves are read in one synchronous sweep,
  // which measures several times faster than async reads for thousands of small files.
  const loaded: FileResult[] = [];
  for (const c of candidates) {
    const escape = skillFileEscape(c.skillDir, c.file);
    if (escape) {
      loaded.push({ file: c.file, raws: [], diagnostics: [escape] });
      continue;
    }
    const read = readSourceFileSync(c.file, 'skill');
    if (read.kind === 'missing') continue;
    if (read.kind === 'bad') {
      loaded.push({ file: c.file, raws: [], diagnostics: [read.diagnostic] });
      continue;
    }
    const skill: FileResult = parseSkillFile(read.text, c.file, {
      skillSource: c.source,
      cwd: loc.workspace,
      bom: read.bom === true,
    });
    // A user skill with a sidecar is a marketplace install; only hook-bearing skills need to know.
    if (c.source === 'user' && skill.raws.length > 0) markMarketplace(skill, c.skillDir);
    loaded.push(skill);
  }
  return loaded;
}
