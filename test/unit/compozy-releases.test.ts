// SPEC §10: the CompozyOS catalog across releases — which release is selected, whether an event
// is in it (with the release-naming diagnostics), its matcher fields and the payload path each
// reads, its payload/patch types, and the changes between releases.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookctlError } from '../../src/errors.js';
import { compozyReleaseChanges, diffReleases } from '../../src/dialects/compozy/release-changes.js';
import { patchTypeIn, payloadTypeIn } from '../../src/dialects/compozy/release-types.js';
import {
  compozyReleases,
  eventInRelease,
  newestCompozyRelease,
  releaseCatalog,
  resolveCompozyRelease,
  selectCompozyRelease,
} from '../../src/dialects/compozy/releases.js';
import { tempDir } from '../support/temp.js';

const release = (label: string) => resolveCompozyRelease(label);

describe('selecting a release', () => {
  it('defaults to the newest release', () => {
    expect(resolveCompozyRelease().label).toBe('main-2026-10');
    expect(newestCompozyRelease().newest).toBe(true);
    expect(compozyReleases().at(-1)).toBe(newestCompozyRelease());
  });

  it('knows every release of the catalog in order, the snapshot line outside it excluded', () => {
    expect(compozyReleases().map((r) => r.label)).toEqual([
      'v0.3.0-beta.19',
      'v0.3.0-beta.20',
      'v0.3.0-beta.21',
      'v0.3.0-beta.22',
      'changelog-2026-09-10',
      'pre-retire',
      'retire-2026-09-27',
      'main-2026-10',
    ]);
  });

  it('accepts a label with or without its leading v', () => {
    expect(resolveCompozyRelease('v0.3.0-beta.19').label).toBe('v0.3.0-beta.19');
    expect(resolveCompozyRelease('0.3.0-beta.19').label).toBe('v0.3.0-beta.19');
  });

  it('refuses an unknown label with a usage error that lists the known ones', () => {
    let caught: unknown;
    try {
      resolveCompozyRelease('v9.9.9');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(HookctlError);
    const err = caught as HookctlError;
    expect(err.exit).toBe(2);
    expect(err.code).toBe('unknown_compozy_version');
    expect(err.message).toBe(
      'unknown CompozyOS version "v9.9.9"; known versions: v0.3.0-beta.19, v0.3.0-beta.20, v0.3.0-beta.21, ' +
        'v0.3.0-beta.22, changelog-2026-09-10, pre-retire, retire-2026-09-27, main-2026-10 (newest)',
    );
  });

  it('refuses the snapshot line outside the release order, saying why', () => {
    expect(() => resolveCompozyRelease('call-branch')).toThrow(
      /"call-branch" \(a snapshot line outside the release order\)/,
    );
  });

  it('takes --compozy-version over HOOKCTL_COMPOZY_VERSION, and the variable over the default', () => {
    const env = { HOOKCTL_COMPOZY_VERSION: 'pre-retire' };
    expect(selectCompozyRelease(undefined, env).label).toBe('pre-retire');
    expect(selectCompozyRelease('v0.3.0-beta.20', env).label).toBe('v0.3.0-beta.20');
    expect(selectCompozyRelease(undefined, {}).label).toBe('main-2026-10');
    expect(() => selectCompozyRelease(undefined, { HOOKCTL_COMPOZY_VERSION: 'nope' })).toThrow(HookctlError);
  });
});

describe('an event in a release', () => {
  it('sandbox.prepare: valid before the retirement, removed from it on (SPEC §10 text)', () => {
    expect(eventInRelease('sandbox.prepare', release('pre-retire')).kind).toBe('present');
    const gone = eventInRelease('sandbox.prepare', release('retire-2026-09-27'));
    expect(gone).toMatchObject({ kind: 'removed', release: 'retire-2026-09-27' });
    expect(gone.kind === 'removed' && gone.message).toBe(
      'hooks: invalid hook event "sandbox.prepare" (removed in CompozyOS v0.3.0)',
    );
    expect(eventInRelease('sandbox.prepare').kind).toBe('removed');
    expect(eventInRelease('network.peer.joined').kind).toBe('removed');
  });

  it('subagent.settled: not yet added before main-2026-10, valid in it', () => {
    const early = eventInRelease('subagent.settled', release('retire-2026-09-27'));
    expect(early.kind === 'not_yet_added' && early.message).toBe(
      'hooks: invalid hook event "subagent.settled" (added in CompozyOS main-2026-10)',
    );
    expect(eventInRelease('subagent.settled', release('main-2026-10')).kind).toBe('present');
  });

  it('terminal.*: added with the 2026-09-10 release', () => {
    const early = eventInRelease('terminal.opened', release('v0.3.0-beta.22'));
    expect(early.kind === 'not_yet_added' && early.message).toBe(
      'hooks: invalid hook event "terminal.opened" (added in CompozyOS changelog-2026-09-10)',
    );
    expect(eventInRelease('terminal.opened', release('changelog-2026-09-10')).kind).toBe('present');
  });

  it('session.runtime_recovery.*: absent from beta.19, present from beta.20', () => {
    expect(eventInRelease('session.runtime_recovery.started', release('v0.3.0-beta.19')).kind).toBe('not_yet_added');
    expect(eventInRelease('session.runtime_recovery.started', release('v0.3.0-beta.20')).kind).toBe('present');
  });

  it('call.*: only on the snapshot line outside the releases, and gone by main-2026-10', () => {
    const old = eventInRelease('call.created', release('v0.3.0-beta.19'));
    expect(old.kind === 'outside_releases' && old.message).toBe(
      'hooks: invalid hook event "call.created" (only in CompozyOS call-branch snapshots, outside the release order)',
    );
    expect(eventInRelease('call.created').kind).toBe('removed');
  });

  it('an event no release ever had is unknown (the caller says "did you mean")', () => {
    expect(eventInRelease('foo.bar')).toEqual({ kind: 'unknown' });
  });

  it('a version whose catalog is unknown behaves as the nearest earlier known one', () => {
    const beta21 = release('v0.3.0-beta.21');
    expect(beta21.catalogOf).toBe('v0.3.0-beta.20');
    expect(release('v0.3.0-beta.22').catalogOf).toBe('v0.3.0-beta.20');
    expect(releaseCatalog(beta21).events.map((e) => e.name)).toEqual(
      releaseCatalog(release('v0.3.0-beta.20')).events.map((e) => e.name),
    );
  });

  it('counts the events of each release', () => {
    const count = (l: string) => releaseCatalog(release(l)).events.length;
    expect(count('v0.3.0-beta.19')).toBe(101);
    expect(count('v0.3.0-beta.20')).toBe(104);
    expect(count('changelog-2026-09-10')).toBe(114);
    expect(count('retire-2026-09-27')).toBe(99);
    expect(count('main-2026-10')).toBe(100);
  });
});

describe('matcher fields of a release', () => {
  it('participation_channel leaves five families with the retirement', () => {
    const families = ['coordinator', 'task', 'task.run', 'loop', 'spawn'];
    const before = releaseCatalog(release('pre-retire'));
    const after = releaseCatalog(release('retire-2026-09-27'));
    for (const f of families) {
      expect(before.families[f]).toContain('participation_channel');
      expect(after.families[f]).not.toContain('participation_channel');
    }
    expect(before.knownMatcherFields.has('sandbox_id')).toBe(true);
    expect(after.knownMatcherFields.has('sandbox_id')).toBe(false);
  });

  it('compaction_trigger holds in every release, compaction_reason in none (SPEC §2.2 retires it)', () => {
    for (const r of compozyReleases()) {
      expect(releaseCatalog(r).families.context).toEqual(['worktree_id', 'compaction_trigger']);
    }
  });

  it('each matcher field reads the payload path the catalog names', () => {
    const main = releaseCatalog();
    expect(main.event('message.start')!.matcher_payload_fields).toMatchObject({
      message_role: 'role',
      message_delta_type: 'delta_type',
      worktree_id: 'worktree_id',
    });
    expect(main.event('permission.request')!.matcher_payload_fields.tool_name).toBe('tool_call.kind');
    expect(main.event('tool.pre_call')!.matcher_payload_fields).toMatchObject({
      workspace_root: 'workspace',
      tool_read_only: 'read_only',
      tool_id: 'tool_id',
    });
    expect(main.event('context.pre_compact')!.matcher_payload_fields.compaction_trigger).toBe('trigger');
    const old = releaseCatalog(release('pre-retire'));
    expect(old.event('sandbox.sync.before')!.matcher_payload_fields.sync_direction).toBe('direction');
    // A per-event exception of the family's path.
    expect(old.event('sandbox.prepare')!.matcher_payload_fields.sandbox_profile).toBe('profile.profile');
    expect(old.event('sandbox.ready')!.matcher_payload_fields.sandbox_profile).toBe('profile');
    // An event with its own matcher fields reads its own paths.
    expect(old.event('network.participation.pre_resolve')!.matcher_payload_fields).toEqual({
      workspace_id: 'workspace_id',
      channel: 'request.channel_id',
      participation_mode: 'request.mode',
      participation_source: 'source',
    });
    expect(old.event('coordinator.spawned')!.matcher_payload_fields.participation_channel).toBe(
      'resolved_network_participation.channel_id',
    );
  });
});

describe('payload and patch types of a release', () => {
  it('the context patch: deny and applied fields until main-2026-10, only labels from it', () => {
    const oldEvent = releaseCatalog(release('retire-2026-09-27')).event('context.pre_compact')!;
    expect(oldEvent).toMatchObject({ deny: 'stop', deny_field: 'deny' });
    expect(releaseCatalog().event('context.pre_compact')).toMatchObject({ deny: null, deny_field: null });
    expect(patchTypeIn('ContextPreCompactPatch', release('retire-2026-09-27'))).toEqual({
      fields: {
        deny: 'boolean',
        deny_reason: 'string',
        reason: 'string',
        strategy: 'string',
        context_blocks: 'array<object:ContextBlock>',
      },
      applied: ['reason', 'strategy', 'context_blocks'],
      observation_only: false,
    });
    expect(patchTypeIn('ContextPreCompactPatch')).toEqual({
      fields: { labels: 'string_map' },
      applied: [],
      observation_only: true,
    });
  });

  it('the context payload: trigger in every release; compaction_id and status only from main-2026-10', () => {
    const old = payloadTypeIn('ContextPostCompactPayload', release('v0.3.0-beta.19'))!;
    expect(old.fields).toMatchObject({ trigger: 'string', reason: 'string', strategy: 'string' });
    expect(old.fields).not.toHaveProperty('compaction_id');
    expect(old.enums).toEqual({ trigger: ['requested', 'agent'] });
    const now = payloadTypeIn('ContextPostCompactPayload')!;
    expect(now.fields).toMatchObject({ trigger: 'string', compaction_id: 'string', status: 'string' });
    expect(now.fields).not.toHaveProperty('reason');
    expect(now.enums).toEqual({ trigger: ['requested', 'agent'], status: ['completed', 'failed', 'cancelled'] });
  });

  it('profile_id joins session payloads with pre-retire; removed types are absent', () => {
    expect(payloadTypeIn('SessionPreCreatePayload', release('changelog-2026-09-10'))!.fields).not.toHaveProperty(
      'profile_id',
    );
    expect(payloadTypeIn('SessionPreCreatePayload', release('pre-retire'))!.fields.profile_id).toBe('string');
    expect(payloadTypeIn('SandboxPreparePayload', release('pre-retire'))).toBeDefined();
    expect(payloadTypeIn('SandboxPreparePayload')).toBeUndefined();
    expect(patchTypeIn('SandboxPreparePatch')).toBeUndefined();
    expect(payloadTypeIn('NoSuchPayload')).toBeUndefined();
  });
});

describe('changes between releases', () => {
  const changes = compozyReleaseChanges();
  const of = (label: string) => changes.find((c) => c.version === label)!;

  it('the retirement removes the sandbox and network families and their events', () => {
    const retire = of('retire-2026-09-27');
    expect(retire).toMatchObject({ name: 'v0.3.0', previous: 'pre-retire' });
    expect(retire.changes).toContainEqual({ kind: 'family_removed', name: 'sandbox', in: [] });
    expect(retire.changes).toContainEqual({ kind: 'family_removed', name: 'network', in: [] });
    expect(retire.changes).toContainEqual({ kind: 'event_removed', name: 'sandbox.prepare', in: ['sandbox'] });
    expect(retire.changes).toContainEqual({
      kind: 'matcher_field_removed',
      name: 'participation_channel',
      in: ['coordinator', 'task', 'task.run', 'loop', 'spawn'],
    });
  });

  it('main-2026-10 adds subagent.settled and redesigns the context patch', () => {
    const main = of('main-2026-10');
    expect(main.changes).toContainEqual({ kind: 'event_added', name: 'subagent.settled', in: ['subagent'] });
    expect(main.changes).toContainEqual({
      kind: 'event_changed',
      name: 'context.pre_compact',
      in: ['context'],
      detail: 'deny: stop -> null, deny_field: deny -> null',
    });
    expect(main.changes).toContainEqual({
      kind: 'patch_field_added',
      name: 'labels',
      in: ['ContextPreCompactPatch', 'ContextPostCompactPatch'],
    });
  });

  it('a version with an unknown catalog says which release it behaves as, and changes nothing', () => {
    expect(of('v0.3.0-beta.21')).toMatchObject({ uses: 'v0.3.0-beta.20', catalog: 'unknown', changes: [] });
    expect(of('v0.3.0-beta.22')).toMatchObject({ uses: 'v0.3.0-beta.20', changes: [] });
  });

  it('the snapshot line outside the release order lists what only it has', () => {
    const side = of('call-branch');
    expect(side.outside_release_order).toBe(true);
    expect(side.changes.map((c) => c.name)).toContain('call.created');
    expect(side.changes).toHaveLength(11);
  });

  it('marks the selected release', () => {
    const marked = compozyReleaseChanges(release('pre-retire')).filter((c) => c.selected);
    expect(marked.map((c) => c.version)).toEqual(['pre-retire']);
  });

  it('diffing a release with itself changes nothing', () => {
    expect(diffReleases(release('pre-retire'), release('pre-retire'))).toEqual([]);
  });
});

describe('scripts/gen-catalog.mjs', () => {
  const root = join(import.meta.dirname, '../..');
  const script = join(root, 'scripts/gen-catalog.mjs');
  const fixture = join(root, 'test/fixtures/catalog/compozy-events.mini.json');
  const out = () => tempDir('hookctl-gen-');

  it('writes release order, unknown catalogs, per-event paths and history as data', () => {
    const dir = out();
    execFileSync(process.execPath, [script, fixture, '--out', dir], { stdio: 'pipe' });
    const releases = readFileSync(join(dir, 'releases.generated.ts'), 'utf8');
    // r2's catalog is unknown: it uses r1; the side line is kept but not selectable.
    expect(releases).toMatch(/label: 'r2',[^}]*catalog: 'unknown',[^}]*uses: 'r1',/s);
    expect(releases).toMatch(/label: 'side',[^}]*linear: false,\s*selectable: false,/s);
    // "profile (box.open: profile.name)": the family reads profile, box.open profile.name.
    expect(releases).toMatch(/box: \{[^]*?box_profile: 'profile',/);
    expect(releases).toMatch(
      /name: 'box.open',[^]*?replaced_by: 'context.pre',\s*matcher_payload_fields: \{\s*box_profile: 'profile.name',/,
    );
    // "deny 'stop' -> null, deny_field 'deny' -> null" holds before r3.
    expect(releases).toMatch(/before: \[\s*\{\s*until: 'r3',\s*values: \{\s*deny: 'stop',\s*deny_field: 'deny',/);
    // hookctl's adjustment: compaction_trigger in every release, compaction_reason retired.
    expect(releases).toMatch(/matcher_fields: \['worktree_id', 'compaction_trigger'\]/);
    const types = readFileSync(join(dir, 'release-types.generated.ts'), 'utf8');
    expect(types).toMatch(/values: \{\s*applied: \['reason'\],\s*observation_only: false,/);
    expect(types).toMatch(/ContextPayload: \{\s*fields: \{\s*trigger: 'string',/);
  });

  it('refuses a history it cannot reconcile with the current values', () => {
    const dir = out();
    const bad = join(dir, 'bad.json');
    const data = JSON.parse(readFileSync(fixture, 'utf8'));
    data.events[2].history[0].change = "deny 'stop' -> 'error'";
    writeFileSync(bad, JSON.stringify(data));
    const run = spawnSync(process.execPath, [script, bad, '--out', dir], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("events.context.pre.history: deny -> 'error' is not its current value null");
  });

  it('needs the path of the catalog', () => {
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('usage: node scripts/gen-catalog.mjs');
  });
});
