// The claude dialect (claude.md): Claude Code hooks from settings files, plugins, skills and
// subagents. One `Dialect` object; src/dialects/registry.ts lists it. Loaders, validation and
// dispatch are imported on first use, so `list` never loads the runner and `events` no loader.
import { basename, dirname } from 'node:path';
import type { Dialect, DialectCatalog, EventRow, FileValidation } from '../types.js';
import { claudeEvent, claudeEventAddedLater } from './catalog.js';
import { CLAUDE_DIAGNOSTIC_CODES } from './codes.js';
import { claudeEventDetail, claudeEventRows, claudeEventSchemas } from './events.js';
import {
  claudeLocations,
  claudeSessionIdFor,
  nothingToRead,
  rootProjectSettingsUnread,
  sessionsDirOf,
} from './locations.js';
import type { ClaudeDispatchResult } from './dispatch/dispatch.js';
import {
  CLAUDE_LIST_COLUMNS,
  claudeHookOfAgent,
  claudeInfoFields,
  claudeListFields,
  claudeListRow,
} from './sources/list-fields.js';
import type { ClaudePlanEntry } from './dispatch/plan.js';
import type { ClaudeContext, ClaudeSource } from './model.js';
import { modNote } from './sources/mods.js';
import {
  CLAUDE_VERSION_ENV,
  NEWEST_CLAUDE_VERSION,
  configureClaudeRelease,
  describeClaudeRelease,
  selectedClaudeRelease,
} from './releases.js';
import { verdictExitCode } from './verdicts.js';

const SOURCES: readonly ClaudeSource[] = [
  'claude_managed',
  'claude_user',
  'claude_project',
  'claude_local',
  'claude_plugin',
  'claude_skill',
  'claude_command',
  'claude_agent',
];

export const claudeDialect: Dialect = {
  name: 'claude',
  sources: SOURCES,
  environment: [
    ['CLAUDE_CONFIG_DIR', 'Claude Code config dir: settings.json, skills/, agents/, plugins/ (default ~/.claude).'],
    [
      'HOOKCTL_CLAUDE_MANAGED_DIR',
      'Folder of Claude Code managed settings: managed-settings.json, managed-settings.d/ (default /etc/claude-code).',
    ],
    [
      'HOOKCTL_STATE_DIR',
      "hookctl's own state: claude sessions and run logs (default ${XDG_STATE_HOME:-~/.local/state}/hookctl).",
    ],
  ],
  diagnosticCodes: CLAUDE_DIAGNOSTIC_CODES,

  globalFlags: [
    {
      name: 'claude-version',
      env: CLAUDE_VERSION_ENV,
      description: `Claude Code release whose catalog and rules apply (default: the newest, ${NEWEST_CLAUDE_VERSION}; also ${CLAUDE_VERSION_ENV}).`,
    },
  ],
  configure(env) {
    configureClaudeRelease(env);
  },
  catalogVersion: () => describeClaudeRelease(),
  releaseLabel: () => selectedClaudeRelease().version,
  async catalogChanges() {
    return (await import('./release-changes.js')).claudeReleaseChanges();
  },
  removedEventHint(event) {
    // An event of a later release (claude.md §9): say which, and how to select it.
    const since = claudeEventAddedLater(event);
    if (since === undefined) return undefined;
    return `event "${event}" is not in Claude Code ${selectedClaudeRelease().version}: added in Claude Code ${since}; select another with --claude-version (see: hookctl hooks events --changes)`;
  },

  // The rows are EventRow plus the catalog entry; its interface types carry no index signature.
  eventRows: () => claudeEventRows() as unknown as readonly EventRow[],
  hasEvent: (event) => claudeEvent(event) !== undefined,
  eventDetail: async (event) => claudeEventDetail(event),
  eventSchemas: async (event) => claudeEventSchemas(event),

  sessionsDir: (loc) => sessionsDirOf(loc.stateDir),

  async loadCatalog(loc, env): Promise<DialectCatalog> {
    const cl = claudeLocations(loc, env);
    // What loadClaudeSources returns when it finds nothing (a unit test holds the two equal).
    if (nothingToRead(cl)) {
      const context = {
        mods: [],
        settingsEnv: {},
        configDir: cl.configDir,
        workspace: cl.workspace,
        stateDir: cl.stateDir,
        pluginDirs: [],
      };
      return { declarations: [], diagnostics: [], files: [], context };
    }
    const { loadClaudeSources } = await import('./sources/load.js');
    return loadClaudeSources(loc, env);
  },

  workspaceNotes(loc, env) {
    const unread = rootProjectSettingsUnread(claudeLocations(loc, env));
    if (unread === undefined) return [];
    return [
      `${unread.file} is not read: Claude Code reads project settings from the folder it is launched in (pass --workspace ${unread.root})`,
    ];
  },

  async validateFile(file, text, loc, env, opts = {}): Promise<FileValidation | undefined> {
    const { claudeFileKind, validateClaudeFile } = await import('./sources/validate-file.js');
    const forced = opts.forced === true;
    const diagnostics = await validateClaudeFile(file, text, claudeLocations(loc, env), { forced });
    // A SKILL.md may hold compozy hooks too (claude.md §7): only one whose front matter names
    // `compozy` (metadata.compozy) is judged by both dialects.
    const kind = claudeFileKind(file, text ?? '', forced);
    const both = kind === 'skill' && /^[ \t]+compozy[ \t]*:/m.test(text ?? '');
    // A hooks.json outside a hooks/ folder is claude's by its shape only: a dialect whose file
    // it is by name and place (a runtime's own config folder) speaks alone.
    const byShapeOnly = kind === 'hooks' && basename(dirname(file)) !== 'hooks';
    return diagnostics === undefined ? undefined : { diagnostics, exclusive: !both && !byShapeOnly };
  },

  eventNotes(context, events) {
    // Mods (claude.md §1.1): one line per loaded mod that may intercept an event shown.
    const mods = (context as ClaudeContext | undefined)?.mods ?? [];
    const notes = mods.flatMap((m) => modNote(m, events) ?? []);
    return { notes, fields: { mods: mods.filter((m) => m.events.some((e) => events.includes(e))) } };
  },

  sessionIdFor: claudeSessionIdFor,
  async plan(req) {
    const { planClaude } = await import('./dispatch/plan.js');
    return planClaude(req);
  },
  async dispatch(req) {
    const { dispatchClaude } = await import('./dispatch/dispatch.js');
    return dispatchClaude(req);
  },
  exitCode: (result) => verdictExitCode(String(result.verdict)),
  async starterPayload(d, payload) {
    return (await import('./dispatch/starter.js')).claudeStarterPayload(d, payload);
  },
  verdicts: ['pass', 'allow', 'ask', 'defer', 'deny', 'block', 'stop', 'accept', 'decline', 'cancel'],

  listFields: claudeListFields,
  infoFields: claudeInfoFields,
  listColumns: { head: CLAUDE_LIST_COLUMNS, row: claudeListRow },
  isAgentHook: claudeHookOfAgent,
  async fireReports() {
    const { claudeFireReport, claudePlanTable } = await import('./dispatch/fire-report.js');
    return {
      result: (result) => claudeFireReport(result as ClaudeDispatchResult),
      plan: (plan) => claudePlanTable(plan.plan as ClaudePlanEntry[]),
    };
  },

  ownsChange: isClaudeChangeRequest,
  async changeHooks(req) {
    const { changeClaudeHook, claudeEditRequest } = await import('./edit/edit.js');
    return changeClaudeHook(claudeEditRequest(req));
  },
};

/** Light: the name form and the catalog; the edit code loads only for a change. */
function isClaudeChangeRequest(req: { action: string; name?: string; event?: string; allHooks?: boolean }): boolean {
  if (req.allHooks) return true;
  if (req.action === 'create') return req.event !== undefined && claudeEvent(req.event) !== undefined;
  const m = req.name === undefined ? null : CLAUDE_NAME.exec(req.name.trim());
  return m !== null && claudeEvent(m[1]!) !== undefined;
}

/** `<origin>:<Event>:<group>.<handler>` with a claude origin (claude.md §2.2). */
const CLAUDE_NAME =
  /^(?:managed|managed\.d\/.+|user|project|local|local\.workspace|plugin\/.+|skill\/.+|command\/.+|agent\/.+):([^:]+):[1-9][0-9]*\.[1-9][0-9]*$/;
