// The `hooks sessions` use case (SPEC §9): every session with a ledger, of every dialect.
import { listSessions, type SessionsQuery, type SessionsResult } from '../ledger/sessions.js';
import type { Locations } from '../paths.js';
import { sessionsFolders } from './runs.js';

export function sessions(loc: Locations, q: SessionsQuery): SessionsResult {
  return listSessions(sessionsFolders(loc), q);
}
