// The CompozyOS release this process validates and fires against (SPEC §10): the newest unless
// `--compozy-version` or HOOKCTL_COMPOZY_VERSION names another. One process runs one command, so
// the choice is made once, at the start (`configureCompozyRelease`), and read by the catalog
// functions that have no other way to learn it (event rows, hasEvent, the rules).
import { selectCompozyRelease, type CompozyRelease } from './releases.js';

let selected: CompozyRelease | undefined;

/** The selected release; before any configuration, the one HOOKCTL_COMPOZY_VERSION names (else the newest). */
export function selectedCompozyRelease(): CompozyRelease {
  return (selected ??= selectCompozyRelease(undefined, process.env));
}

/** Selects the release `env` names (a bad label is a usage error listing the known ones). */
export function configureCompozyRelease(env: NodeJS.ProcessEnv): CompozyRelease {
  selected = selectCompozyRelease(undefined, env);
  return selected;
}

/** For tests: select a release directly; undefined forgets the choice. */
export function useCompozyRelease(release: CompozyRelease | undefined): void {
  selected = release;
}
