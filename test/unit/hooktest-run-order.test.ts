// `hooks test`'s `ran` is the order the hooks ran (issue 28): the sync chain first, then the
// async hooks, which are queued only once the chain has ended — each part in dispatch order,
// whatever order the async runs ended in. Both what the report shows and what `ran:` compares,
// for a dispatch and for a dry run. A dialect registered here (no processes) interleaves async
// and sync declarations; test/e2e/hooks-test.test.ts shows the same on compozy's real engine.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHookTests } from '../../src/app/hooktest.js';
import type { OrderedDeclaration } from '../../src/declarations/model.js';
import { registerDialect } from '../../src/dialects/registry.js';
import type { Dialect } from '../../src/dialects/types.js';
import type { RunRecord } from '../../src/ledger/record.js';
import type { Locations } from '../../src/paths.js';
import { tempDir } from '../support/temp.js';

const EVENT = 'OrderedEvent';
const declaration = (name: string, order: number, mode: 'sync' | 'async'): OrderedDeclaration =>
  ({
    dialect: 'ordered',
    name,
    event: EVENT,
    source: 'ordered',
    mode,
    status: 'active',
    enabled: true,
    order,
    matcher: {},
  }) as unknown as OrderedDeclaration;

// Dispatch order interleaves the modes.
const DECLARATIONS = [
  declaration('audit', 1, 'async'),
  declaration('check', 2, 'sync'),
  declaration('journal', 3, 'async'),
  declaration('gate', 4, 'sync'),
];

const ordered: Dialect = {
  name: 'ordered',
  sources: ['ordered'],
  eventRows: () => [],
  hasEvent: (e) => e === EVENT,
  eventDetail: async () => undefined,
  eventSchemas: async () => undefined,
  sessionsDir: (loc) => join(loc.workspace, 'sessions'),
  loadCatalog: async () => ({ declarations: DECLARATIONS, diagnostics: [], files: [] }),
  validateFile: async () => undefined,
  sessionIdFor: () => undefined,
  plan: async (req) =>
    req.declarations.map((d) => ({
      name: d.name,
      source: d.source,
      mode: d.mode,
      order: d.order,
      matched: true,
      fields: [],
      status: d.status,
    })),
  dispatch: async (req) => {
    const record = (d: OrderedDeclaration): RunRecord =>
      ({ hook_name: d.name, mode: d.mode, outcome: 'applied', duration_ms: 1 }) as unknown as RunRecord;
    // The sync chain in order, then the async hooks as they end: the later one first.
    const sync = req.declarations.filter((d) => d.mode === 'sync');
    const async = req.declarations.filter((d) => d.mode === 'async').reverse();
    const runs = [...sync, ...async].map(record);
    for (const r of runs) await req.onRecord(r);
    return { verdict: 'completed', payload: req.payload, runs, error: null };
  },
  exitCode: () => 0,
};

let dir: string;
let unregister: () => void;
beforeAll(() => {
  dir = tempDir('hooktest-run-order-');
  unregister = registerDialect(ordered);
});
afterAll(() => unregister());

const loc = (): Locations => ({
  compozyHome: join(dir, 'c'),
  coshHome: join(dir, 'h'),
  coshSystemRoot: join(dir, 's'),
  workspace: dir,
  additionalDirs: [],
  bundledSkillsDir: join(dir, 'b'),
  pluginDirs: [],
  stateDir: join(dir, 'state'),
});

async function run(cases: string[]) {
  const file = join(dir, 'order.hooktest.yaml');
  writeFileSync(file, ['cases:', ...cases, ''].join('\n'));
  const outcome = await runHookTests({ paths: [file], loc: loc(), env: {}, cwd: dir });
  if (outcome.kind !== 'report') throw new Error(JSON.stringify(outcome.diagnostics));
  return outcome.report;
}

describe('ran: the sync chain before the async hooks', () => {
  it('a dispatch: ran passes in run order, and a failure shows the run order as actual', async () => {
    const report = await run([
      `  - { name: run order, event: ${EVENT}, expect: { ran: [check, gate, audit, journal] } }`,
      `  - { name: dispatch order, event: ${EVENT}, expect: { ran: [audit, check, journal, gate] } }`,
    ]);
    expect(report.cases.map((c) => [c.name, c.status])).toEqual([
      ['run order', 'passed'],
      ['dispatch order', 'failed'],
    ]);
    expect(report.cases[1]!.unmet).toEqual([
      expect.objectContaining({ key: 'ran', actual: ['check', 'gate', 'audit', 'journal'] }),
    ]);
  });

  it('a dry run: the hooks that would run, in the order they would run', async () => {
    const report = await run([
      `  - { name: would run, event: ${EVENT}, dry_run: true, expect: { ran: [check, gate, audit, journal] } }`,
    ]);
    expect(report.cases.map((c) => [c.name, c.status, c.unmet])).toEqual([['would run', 'passed', []]]);
  });
});
