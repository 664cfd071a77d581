// Every CompozyOS source as one catalog, in dispatch order (SPEC §2.3). The loaders and the
// ordering are separate chunks, fetched together.
import type { Locations } from '../../paths.js';
import type { DialectCatalog } from '../types.js';

export async function loadCompozyCatalog(loc: Locations, env: NodeJS.ProcessEnv): Promise<DialectCatalog> {
  const [{ loadCompozySources }, { orderDeclarations }] = await Promise.all([
    import('./sources/load.js'),
    import('./rules/ordering.js'),
  ]);
  const loaded = await loadCompozySources(loc, env);
  // The loader's declarations are fresh and held by nothing else: numbered in place, not copied.
  return { ...loaded, declarations: orderDeclarations(loaded.declarations, { inPlace: true }) };
}
