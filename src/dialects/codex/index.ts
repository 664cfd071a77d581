// The codex dialect (codex.md): OpenAI Codex CLI hooks from hooks.json and config.toml layers,
// requirements.toml and plugins, with Codex's hook trust. One `Dialect` object;
// src/dialects/registry.ts lists it. Loaders, validation and dispatch are imported on first use.
import type { Dialect, DialectCatalog, EventRow, FileValidation } from '../types.js';
import type { CodexDispatchResult } from './dispatch/dispatch.js';
import type { CodexPlanEntry } from './dispatch/plan.js';
import { codexEvent } from './catalog.js';
import { CODEX_DIAGNOSTIC_CODES } from './codes.js';
import { codexEventDetail, codexEventRows, codexEventSchemas } from './events.js';
import { codexLocations, codexSessionIdFor, codexSessionsDir, codexUserConfig } from './locations.js';
import {
  CODEX_LIST_COLUMNS,
  codexInfoFields,
  codexInfoRows,
  codexListFields,
  codexListRow,
  codexNeedsReview,
} from './list-fields.js';
import { nothingToRead, projectFolders } from './sources/presence.js';
import type { CodexSource } from './model.js';

const SOURCES: readonly CodexSource[] = [
  'codex_managed',
  'codex_system',
  'codex_user',
  'codex_project',
  'codex_plugin',
];

/** codex.md §5.7 (8): 0 for pass and allow, 1 for deny, block and stop. */
export function codexExitCode(verdict: string): number {
  return verdict === 'deny' || verdict === 'block' || verdict === 'stop' ? 1 : 0;
}

export const codexDialect: Dialect = {
  name: 'codex',
  sources: SOURCES,
  environment: [
    ['CODEX_HOME', 'Codex home: config.toml, hooks.json, plugins/ (default ~/.codex).'],
    ['HOOKCTL_CODEX_SYSTEM_DIR', 'Codex system dir: requirements.toml, hooks.json, config.toml (default /etc/codex).'],
  ],
  diagnosticCodes: CODEX_DIAGNOSTIC_CODES,

  eventRows: () => codexEventRows() as unknown as readonly EventRow[],
  hasEvent: (event) => codexEvent(event) !== undefined,
  eventDetail: async (event) => codexEventDetail(event),
  eventSchemas: async (event) => codexEventSchemas(event),

  sessionsDir: (loc) => codexSessionsDir(loc.stateDir),

  async loadCatalog(loc, env): Promise<DialectCatalog> {
    const cl = codexLocations(loc, env);
    // Nothing of Codex here: a few stats, no parser loaded (issue 25). The context is what
    // loadCodexSources gives when it finds nothing.
    if (nothingToRead(cl)) {
      const context = {
        codexHome: cl.codexHome,
        systemDir: cl.systemDir,
        workspace: cl.workspace,
        projectRoot: projectFolders(cl.workspace).root,
        userConfig: codexUserConfig(cl),
        stateDir: cl.stateDir,
        pluginDirs: cl.pluginDirs,
      };
      return { declarations: [], diagnostics: [], files: [], context };
    }
    const { loadCodexSources } = await import('./sources/load.js');
    return loadCodexSources(loc, env);
  },
  async validateFile(file, _text, loc, env, opts = {}): Promise<FileValidation | undefined> {
    const { validateCodexFile } = await import('./sources/validate-file.js');
    return validateCodexFile(file, loc, env, opts.forced === true);
  },
  listFields: codexListFields,
  infoFields: codexInfoFields,
  infoRows: codexInfoRows,
  listColumns: { head: CODEX_LIST_COLUMNS, row: codexListRow },
  needsReview: codexNeedsReview,

  sessionIdFor: codexSessionIdFor,
  async plan(req) {
    const { planCodex } = await import('./dispatch/plan.js');
    return planCodex(req);
  },
  async dispatch(req) {
    const { dispatchCodex } = await import('./dispatch/dispatch.js');
    return dispatchCodex(req);
  },
  exitCode: (result) => codexExitCode(String(result.verdict)),
  async starterPayload(d, payload) {
    return (await import('./dispatch/starter.js')).codexStarterPayload(d, payload);
  },
  verdicts: ['pass', 'allow', 'deny', 'block', 'stop'],
  async fireReports() {
    const { codexFireReport, codexPlanTable } = await import('./fire-report.js');
    return {
      result: (result) => codexFireReport(result as unknown as CodexDispatchResult),
      plan: (plan) => codexPlanTable(plan.plan as CodexPlanEntry[]),
    };
  },

  // ---- edits (codex.md §7) ----
  ownsChange: isCodexChangeRequest,
  async changeHooks(req) {
    const { changeCodexHook, codexEditRequest } = await import('./edit/edit.js');
    return changeCodexHook(codexEditRequest(req));
  },
  async trustHooks(req) {
    const { trustCodexHooks } = await import('./edit/trust.js');
    return trustCodexHooks(req);
  },
};

/**
 * Light: the name form and the catalog. A create is codex's by its event; the registry asks the
 * dialects in order, so an event claude knows too (PreToolUse) stays claude's without --dialect.
 */
function isCodexChangeRequest(req: { action: string; name?: string; event?: string; allHooks?: boolean }): boolean {
  if (req.allHooks) return false;
  if (req.action === 'create') return req.event !== undefined && codexEvent(req.event) !== undefined;
  const m = req.name === undefined ? null : CODEX_NAME.exec(req.name.trim());
  return m !== null && codexEvent(m[1]!) !== undefined;
}

/** `<origin>:<Event>:<group>.<handler>` with a codex origin (codex.md §2.4). */
const CODEX_NAME =
  /^(?:managed\/requirements\.toml|(?:system|user)\/(?:hooks\.json|config\.toml)|project\/(?:.+\/)?\.codex\/(?:hooks\.json|config\.toml)|plugin\/.+):([^:]+):[1-9][0-9]*\.[1-9][0-9]*$/;
