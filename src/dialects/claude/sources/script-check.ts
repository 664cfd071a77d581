// claude_command_not_found (issue 28): a command hook whose script does not exist or cannot be
// run. Only what resolves statically: the first word of the shell command (the executable in
// exec form), with $CLAUDE_PROJECT_DIR, ${CLAUDE_PLUGIN_ROOT}, ${CLAUDE_PLUGIN_DATA}, $HOME and a
// leading `~` expanded, relative to the folder Claude Code runs the hook in (the project).
import {
  firstShellWord,
  resolveScriptWord,
  scriptProblem,
  scriptProblemText,
} from '../../../declarations/command-script.js';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import { claudeDiagnostic } from '../codes.js';
import type { RawHandler } from './handlers.js';
import { substitutePlaceholders } from '../dispatch/hook-env.js';
import type { ClaudePluginRef, ClaudeSource } from '../model.js';

export interface ScriptCheckContext {
  /** The project folder: $CLAUDE_PROJECT_DIR and the hook's working folder. */
  workspace: string;
  home: string;
  plugin?: ClaudePluginRef;
  file: string;
  source: ClaudeSource;
}

/** The script a command handler starts, resolved; undefined when it cannot be told statically. */
export function handlerScript(raw: RawHandler, ctx: Omit<ScriptCheckContext, 'file' | 'source'>): string | undefined {
  if (raw.type !== 'command' || raw.stray !== undefined || raw.handler.shell === 'powershell') return undefined;
  const command = typeof raw.handler.command === 'string' ? raw.handler.command : '';
  if (Array.isArray(raw.handler.args)) {
    // Exec form: no shell, only the placeholders are replaced (as dispatch does).
    const exe = substitutePlaceholders(command, ctx.workspace, ctx.plugin);
    return exe.includes('$') || exe.startsWith('~') ? undefined : resolveScriptWord(exe, ctx.workspace);
  }
  const vars: Record<string, string> = { CLAUDE_PROJECT_DIR: ctx.workspace, HOME: ctx.home };
  if (ctx.plugin !== undefined) {
    vars.CLAUDE_PLUGIN_ROOT = ctx.plugin.root;
    vars.CLAUDE_PLUGIN_DATA = ctx.plugin.dataDir;
  }
  return resolveScriptWord(firstShellWord(command, { cwd: ctx.workspace, home: ctx.home, vars }), ctx.workspace);
}

/** The warning for a handler whose script cannot run (also added to its notices); undefined when it can. */
export function scriptDiagnostic(raw: RawHandler, ctx: ScriptCheckContext): Diagnostic | undefined {
  const path = handlerScript(raw, ctx);
  if (path === undefined) return undefined;
  const problem = scriptProblem(path);
  if (problem === undefined) return undefined;
  const d = claudeDiagnostic(
    'warning',
    'claude_command_not_found',
    scriptProblemText(path, problem),
    ctx.file,
    raw.fieldAt(['command']) ?? raw.at,
    { source: ctx.source, hook: raw.name },
  );
  raw.notices = [...(raw.notices ?? []), d];
  return d;
}
