// A small dialect that exists only in the tests: one JSON file of hooks per workspace
// (`.fake/hooks.json`, a list of {name, event, command, matcher?}), two events, a matcher on one
// payload field. It implements the Dialect interface and nothing else: registering it is the only
// change the CLI needs (test/unit/fake-dialect.test.ts).
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Diagnostic } from '../../src/declarations/diagnostics.js';
import type { OrderedDeclaration } from '../../src/declarations/model.js';
import type { Dialect, EventDetail, EventRow } from '../../src/dialects/types.js';
import type { Locations } from '../../src/paths.js';

export const FAKE_FILE = 'fake-hooks.json';
const fakeHooksFile = (loc: Locations) => join(loc.workspace, '.fake', FAKE_FILE);

const EVENTS: readonly EventRow[] = [
  {
    event: 'fake.before',
    dialect: 'fake',
    family: 'fake',
    sync_eligible: true,
    deny: 'veto',
    payload: 'FakeInput',
    patch: null,
  },
  {
    event: 'fake.after',
    dialect: 'fake',
    family: 'fake',
    sync_eligible: false,
    deny: null,
    payload: 'FakeInput',
    patch: null,
  },
];
const hasEvent = (event: string) => EVENTS.some((e) => e.event === event);

/** The hooks of one file, checked: an unknown event or a missing command is an error. */
function readFakeHooks(file: string, text: string): { declarations: OrderedDeclaration[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const error = (line: number, code: string, message: string) =>
    diagnostics.push({ severity: 'error', code, message, file, line });
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch {
    error(1, 'json_parse_error', 'fake: not JSON');
    return { declarations: [], diagnostics };
  }
  const declarations: OrderedDeclaration[] = [];
  const order = new Map<string, number>();
  (Array.isArray(entries) ? entries : []).forEach((raw: Record<string, unknown>, i) => {
    const line = i + 2; // one entry per line, after the opening bracket
    const event = String(raw.event);
    if (!hasEvent(event)) return void error(line, 'invalid_event', `fake: unknown event "${event}"`);
    if (typeof raw.command !== 'string')
      return void error(line, 'command_required', `fake: hook "${String(raw.name)}" has no command`);
    const n = (order.get(event) ?? 0) + 1;
    order.set(event, n);
    declarations.push({
      dialect: 'fake',
      name: String(raw.name),
      event,
      source: 'fake_file',
      mode: 'sync',
      required: false,
      priority: null,
      timeout_ms: 0,
      enabled: true,
      metadata: {},
      matcher: typeof raw.matcher === 'string' ? { target: raw.matcher } : {},
      executor_kind: 'subprocess',
      command: raw.command,
      args: [],
      env: {},
      secret_env: {},
      cwd: resolve(file, '..'),
      location: { file, line },
      status: 'active',
      order: n,
    });
  });
  return { declarations, diagnostics };
}

export const fakeDialect: Dialect = {
  name: 'fake',
  sources: ['fake_file'],
  eventRows: () => EVENTS,
  hasEvent,
  async eventDetail(event) {
    const row = EVENTS.find((e) => e.event === event);
    if (!row) return undefined;
    const detail: EventDetail = {
      ...row,
      summary: 'A fake event.',
      guard: null,
      deny_field: null,
      payload_fields: [{ name: 'target', type: 'string' }],
      patch_fields: [],
      observation_only: true,
      matcher_fields: ['target'],
    };
    return detail;
  },
  async eventSchemas(event) {
    return hasEvent(event) ? { payload: { type: 'object' }, patch: {} } : undefined;
  },
  sessionsDir: (loc) => join(loc.workspace, '.fake', 'sessions'),
  async loadCatalog(loc) {
    const file = fakeHooksFile(loc);
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) return { declarations: [], diagnostics: [], files: [] };
    return { ...readFakeHooks(file, text), files: [file] };
  },
  async validateFile(file, text) {
    if (basename(file) !== FAKE_FILE) return undefined;
    return { diagnostics: readFakeHooks(resolve(file), text ?? '').diagnostics };
  },
  sessionIdFor: () => undefined,
  async plan(req) {
    return req.declarations.map((d) => {
      const pattern = d.matcher.target;
      const fields =
        pattern === undefined
          ? []
          : [{ field: 'target', pattern, value: req.payload.target, matched: pattern === req.payload.target }];
      return {
        name: d.name,
        source: d.source,
        mode: d.mode,
        order: d.order,
        matched: fields.every((f) => f.matched),
        fields,
        status: d.status,
      };
    });
  },
  async dispatch() {
    throw new Error('the fake dialect runs nothing');
  },
  exitCode: () => 0,
};
