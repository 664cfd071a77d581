// What every dialect takes as a fire's session id when `--session` is not given (SPEC §6,
// `hooks fire`): the payload's own.

/** The payload's `session_id` when it is a non-empty string. */
export function payloadSessionId(payload: Record<string, unknown>): string | undefined {
  const own = payload.session_id;
  return typeof own === 'string' && own !== '' ? own : undefined;
}
