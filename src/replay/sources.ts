// Where replay's inputs are (replay.md §2): the Claude config dir's project folder of the
// workspace, the transcripts in it (main, subagent, flat agent files), folders and files given
// as PATHs, and which kind of input a file is.
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { isObject } from './lines.js';

/** The Claude config dir replay reads (§2.1): $CLAUDE_CONFIG_DIR, ~/.claude, or the legacy place. */
export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
  if (env.CLAUDE_CONFIG_DIR?.trim()) return resolve(env.CLAUDE_CONFIG_DIR);
  const home = env.HOME?.trim() ? env.HOME : homedir();
  const dir = join(home, '.claude');
  if (!existsSync(join(dir, 'projects'))) {
    const xdg = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME : join(home, '.config');
    const legacy = join(xdg, 'claude');
    if (existsSync(join(legacy, 'projects'))) return legacy;
  }
  return dir;
}

/** Java-style string hash over UTF-16 units, as the Node.js builds compute it. */
export function javaHash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (31 * h + text.charCodeAt(i)) | 0;
  return h;
}

const MAX_NAME = 200;

/** The project folder name Claude Code derives from a path (§2.1). */
export function projectDirName(path: string): string {
  const name = path.replace(/[^A-Za-z0-9]/g, '-'); // per UTF-16 unit: an astral character gives `--`
  if (name.length <= MAX_NAME) return name;
  return `${name.slice(0, MAX_NAME)}-${Math.abs(javaHash(path)).toString(36)}`;
}

/** The workspace's project folder, when it exists (§2.1); `looked` is the folder named in errors. */
export function workspaceProjectDir(
  workspace: string,
  env: NodeJS.ProcessEnv,
): { dir: string | undefined; looked: string } {
  const projects = join(claudeConfigDir(env), 'projects');
  const own = env.CLAUDE_CODE_PROJECT_DIR_NAME;
  if (env.CLAUDE_CONFIG_DIR?.trim() && own !== undefined && /^[A-Za-z0-9_-]{1,64}$/.test(own)) {
    const dir = join(projects, own);
    return { dir: existsSync(dir) ? dir : undefined, looked: dir };
  }
  const paths = [workspace];
  try {
    const real = realpathSync(workspace).normalize('NFC');
    if (real !== workspace) paths.push(real);
  } catch {
    // a workspace that does not resolve: the path as given only
  }
  const first = join(projects, projectDirName(workspace));
  for (const p of paths) {
    const name = projectDirName(p);
    const dir = join(projects, name);
    if (existsSync(dir)) return { dir, looked: dir };
    if (name.length > MAX_NAME) {
      const prefix = name.slice(0, MAX_NAME) + '-';
      const found = safeList(projects)
        .filter((n) => n.startsWith(prefix) && /^[0-9a-z]+$/.test(n.slice(prefix.length)))
        .sort()[0];
      if (found !== undefined) return { dir: join(projects, found), looked: dir };
    }
  }
  return { dir: undefined, looked: first };
}

/** Every project folder of the config dir (`--all-projects`). */
export function allProjectDirs(env: NodeJS.ProcessEnv): string[] {
  const projects = join(claudeConfigDir(env), 'projects');
  return safeList(projects)
    .sort()
    .map((n) => join(projects, n))
    .filter(isDir);
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The transcripts of a folder (§2.1): main files, and each one's subagent files. */
export interface FolderTranscripts {
  main: string[];
  /** Subagent files under `<stem>/subagents/`, by the main file's path. */
  subagents: Map<string, string[]>;
  /** `agent-*.jsonl` directly in the folder (older layout): their session is their entries'. */
  flatAgents: string[];
}

export function folderTranscripts(dir: string): FolderTranscripts {
  const names = safeList(dir).sort();
  const main: string[] = [];
  const flatAgents: string[] = [];
  const subagents = new Map<string, string[]>();
  for (const n of names) {
    const p = join(dir, n);
    if (!n.endsWith('.jsonl') || isDir(p)) continue;
    if (n.startsWith('agent-')) flatAgents.push(p);
    else main.push(p);
  }
  for (const m of main) {
    const sub = join(dir, basename(m, '.jsonl'), 'subagents');
    const found = agentFilesUnder(sub);
    if (found.length > 0) subagents.set(m, found);
  }
  return { main, subagents, flatAgents };
}

/** `agent-*.jsonl` at any depth under a folder, in path order. */
function agentFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const n of safeList(dir).sort()) {
    const p = join(dir, n);
    if (isDir(p)) out.push(...agentFilesUnder(p));
    else if (n.startsWith('agent-') && n.endsWith('.jsonl')) out.push(p);
  }
  return out;
}

/** A file's kind by its first line that parses as an object (§2.4). */
export async function sniffKind(file: string): Promise<'transcript' | 'events' | 'payloads'> {
  const handle = await open(file, 'r');
  try {
    for await (const line of handle.readLines({ encoding: 'utf8' })) {
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch {
        continue;
      }
      if (!isObject(v)) continue;
      if (typeof v.event === 'string' && isObject(v.payload)) return 'events';
      if (v.dispatch_id !== undefined && v.payload !== undefined) return 'payloads';
      return 'transcript';
    }
  } finally {
    await handle.close();
  }
  return 'transcript';
}

/** The main transcript a subagent file belongs to, by its place (`<stem>/subagents/…`). */
export function mainOfSubagent(file: string): string | undefined {
  let dir = dirname(file);
  while (dir !== dirname(dir)) {
    if (basename(dir) === 'subagents') {
      const stemDir = dirname(dir);
      return join(dirname(stemDir), basename(stemDir) + '.jsonl');
    }
    dir = dirname(dir);
  }
  return undefined;
}
