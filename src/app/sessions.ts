// The use cases of runs over time (SPEC §9) bound to a user's locations: every dialect's sessions
// folder comes from the dialect registry, so a new dialect's sessions are listed, read, counted,
// followed and exported with no change here.
import { compozySessionsDir, coshSessionsDir, type Locations } from '../paths.js';
import { listSessions, type SessionsFolder, type SessionsQuery, type SessionsResult } from '../ledger/sessions.js';

/** Each dialect's folder of sessions. */
export function sessionsFolders(loc: Locations): SessionsFolder[] {
  return [
    { dialect: 'compozy', dir: compozySessionsDir(loc) },
    { dialect: 'cosh', dir: coshSessionsDir(loc) },
  ];
}

/** `hooks sessions`. */
export function sessions(loc: Locations, q: SessionsQuery): SessionsResult {
  return listSessions(sessionsFolders(loc), q);
}
