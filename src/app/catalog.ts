// The resolved catalog: every declaration source of the requested dialects, validated and in
// dispatch order. What list, info, validate and fire share. Each dialect's loaders are imported
// only when that dialect is asked for.
import type { Diagnostic } from '../declarations/diagnostics.js';
import type { Declaration, Dialect, OrderedDeclaration } from '../declarations/model.js';
import type { Locations } from '../paths.js';

export interface Catalog {
  /** All declarations (every status), each dialect in dispatch order. */
  declarations: OrderedDeclaration[];
  diagnostics: Diagnostic[];
  /** Files that were read. */
  files: string[];
}

export interface CatalogOptions {
  /** Only this dialect's sources (fire reads only its own dialect, SPEC §4.4). */
  dialect?: Dialect;
  env?: NodeJS.ProcessEnv;
}

export async function loadCatalog(loc: Locations, opts: CatalogOptions = {}): Promise<Catalog> {
  const env = opts.env ?? process.env;
  const [compozy, cosh] = await Promise.all([
    opts.dialect === 'cosh' ? undefined : loadCompozy(loc, env),
    opts.dialect === 'compozy' ? undefined : loadCosh(loc, env),
  ]);
  return {
    declarations: [...(compozy?.declarations ?? []), ...(cosh?.declarations ?? [])],
    diagnostics: [...(compozy?.diagnostics ?? []), ...(cosh?.diagnostics ?? [])],
    files: [...(compozy?.files ?? []), ...(cosh?.files ?? [])],
  };
}

async function loadCompozy(loc: Locations, env: NodeJS.ProcessEnv): Promise<Catalog> {
  const [{ loadCompozySources }, { orderDeclarations }] = await Promise.all([
    import('../dialects/compozy/sources/load.js'),
    import('../dialects/compozy/rules/ordering.js'),
  ]);
  const loaded = await loadCompozySources(loc, env);
  // The loader's declarations are fresh and held by nothing else: numbered in place, not copied.
  return { ...loaded, declarations: orderDeclarations(loaded.declarations, { inPlace: true }) };
}

async function loadCosh(loc: Locations, env: NodeJS.ProcessEnv): Promise<Catalog> {
  const { loadCoshSources } = await import('../dialects/cosh/load.js');
  const loaded = await loadCoshSources(loc, env);
  return { ...loaded, declarations: numberInEventOrder(loaded.declarations) };
}

/** cosh loaders already return dispatch order; this only numbers active hooks per event. */
function numberInEventOrder(decls: Declaration[]): OrderedDeclaration[] {
  const next = new Map<string, number>();
  return decls.map((d) => {
    if (d.status !== 'active') return { ...d, order: null };
    const n = (next.get(d.event) ?? 0) + 1;
    next.set(d.event, n);
    return { ...d, order: n };
  });
}

/** Active declarations of one event, in dispatch order. */
export function declarationsForEvent(catalog: Catalog, event: string): OrderedDeclaration[] {
  return catalog.declarations.filter((d) => d.event === event && d.status === 'active');
}
