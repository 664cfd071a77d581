// The CompozyOS release this process validates and fires against (SPEC §10): the newest unless
// `--compozy-version` or HOOKCTL_COMPOZY_VERSION names another. One process runs one command, so
// the choice is made once, at the start (`configureCompozyRelease`), and read by the catalog
// functions that have no other way to learn it (event rows, hasEvent, the rules).
import { selectCompozyRelease, type CompozyRelease } from './releases.js';

let selected: CompozyRelease | undefined;
/** A bad HOOKCTL_COMPOZY_VERSION: thrown by the first read of the release, not by configuration. */
let deferred: Error | undefined;

/**
 * The selected release; before any configuration, the one HOOKCTL_COMPOZY_VERSION names (else the
 * newest). A bad variable is a usage error here, where compozy's catalog is needed.
 */
export function selectedCompozyRelease(): CompozyRelease {
  if (deferred !== undefined) throw deferred;
  return (selected ??= selectCompozyRelease(undefined, process.env));
}

/**
 * Selects the release `env` names. A bad label is a usage error listing the known ones: at once
 * when `typed` (the `--compozy-version` flag), else when compozy's release is first read, so a
 * bad variable never stops a command that does not use compozy (issue 24).
 */
export function configureCompozyRelease(env: NodeJS.ProcessEnv, typed = true): CompozyRelease | undefined {
  deferred = undefined;
  selected = undefined;
  try {
    selected = selectCompozyRelease(undefined, env);
  } catch (err) {
    if (typed) throw err;
    deferred = err as Error;
  }
  return selected;
}

/** Whether the release variable was bad (reading the release throws). */
export function compozyReleaseUnreadable(): boolean {
  return deferred !== undefined;
}

/** For tests: select a release directly; undefined forgets the choice. */
export function useCompozyRelease(release: CompozyRelease | undefined): void {
  selected = release;
  deferred = undefined;
}
