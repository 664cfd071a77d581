// The `hooks info NAME` use case (SPEC §6): every declaration of that name in every dialect, in the
// order `hooks list --all` shows them, and the name's last runs.
import type { Diagnostic } from '../declarations/diagnostics.js';
import type { OrderedDeclaration } from '../declarations/model.js';
import { ExitCode, HookctlError } from '../errors.js';
import type { RunRecord } from '../ledger/record.js';
import { workspaceScope } from '../ledger/workspace-scope.js';
import { didYouMean } from '../matching/suggest.js';
import type { Locations } from '../paths.js';
import { loadCatalog, sourceKinds } from './catalog.js';
import { filterDeclarations } from './list.js';
import { lastRunsOfHook } from './runs.js';

export interface HookInfo {
  name: string;
  declarations: OrderedDeclaration[];
  runs: RunRecord[];
  /** The workspace whose runs `runs` holds; null with --all-workspaces (SPEC §9). */
  runs_workspace: string | null;
  /** Records left out of `runs` for having no workspace (written before it existed). */
  runs_without_workspace: number;
}

/** The last runs shown (SPEC §6: "its last runs"), newest first, from every session (issue 16). */
export const INFO_RUNS = 10;

/** `onDiagnostics` hears the catalog's problems first, also when no hook has the name. */
export async function hookInfo(
  loc: Locations,
  name: string,
  opts: {
    session?: string;
    dialect?: string;
    /** Runs of every workspace, not only loc.workspace's. */
    allWorkspaces?: boolean;
    onDiagnostics: (diagnostics: Diagnostic[]) => void;
    /** Stderr lines about the hook's event that hookctl cannot see into (claude: mods). */
    onNotes?: (notes: string[]) => void;
    /** The kinds of declaration source read (sourceKinds). */
    onSources?: (kinds: readonly string[]) => void;
  },
): Promise<HookInfo> {
  const catalog = await loadCatalog(loc, { dialect: opts.dialect });
  opts.onDiagnostics(catalog.diagnostics);
  opts.onSources?.(sourceKinds(catalog.declarations));
  const declarations = filterDeclarations(
    catalog.declarations.filter((d) => d.name === name),
    { all: true },
  );
  if (declarations.length === 0) {
    const known = catalog.declarations.flatMap((d) => (d.name === null ? [] : [d.name]));
    throw new HookctlError('hook_not_found', `no hooks named "${name}" found${didYouMean(name, known)}`, ExitCode.no);
  }
  opts.onNotes?.(catalog.eventNotes([...new Set(declarations.map((d) => d.event))]));
  const workspace = opts.allWorkspaces ? undefined : workspaceScope(loc.workspace);
  const { runs, withoutWorkspace } = lastRunsOfHook(loc, name, INFO_RUNS, {
    dialects: [...new Set(declarations.map((d) => d.dialect))],
    session: opts.session,
    workspace,
  });
  return {
    name,
    declarations,
    runs,
    runs_workspace: workspace?.workspace ?? null,
    runs_without_workspace: withoutWorkspace,
  };
}
