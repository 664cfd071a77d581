#!/usr/bin/env node
// Dev-time only: turns the CompozyOS catalog across releases (compozy-events.next.json) into
// committed TypeScript, so nothing reads the JSON at run time (SPEC §10).
//
//   node scripts/gen-catalog.mjs path/to/compozy-events.next.json [--check] [--out DIR]
//
// `--check` writes nothing and exits 1 when the committed files differ from what the JSON gives.
// `--out DIR` writes the two files into DIR instead (the generator's own tests use it).
// Two outputs, split for start-up cost (list and validate never load payload types):
//   src/dialects/compozy/releases.generated.ts       releases, families, events (list/validate),
//                                                    each a function that builds it on first call
//   src/dialects/compozy/release-types.generated.ts  payload and patch types (events EVENT,
//                                                    --schema, dispatch)
//
// What the generator does beyond copying (each step refuses data it cannot represent):
// - the release order: versions with `linear: false` (a snapshot line outside the releases) are
//   kept, marked, and never selectable; a version whose catalog is `unknown` gets `uses`, the
//   nearest earlier version whose catalog is known;
// - a display name for each release: its `version`, else RELEASE_NAMES, else its label;
// - free-text `history` entries ("deny 'stop' -> null, ...") become `before`: the values that
//   held in every release earlier than the entry's version (checked against the current values);
// - `matcher_payload_fields` values with a per-event exception ("profile (sandbox.prepare:
//   profile.profile)") become the family path plus a per-event override;
// - notes are dropped (the JSON keeps them); hookctl's own adjustments (HOOKCTL_ADJUSTMENTS)
//   are applied, each asserting the data it changes still looks as expected.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatTypeScript, lazyTable, readSourceJson, writeOrCheck } from './lib/generated.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const outIndex = args.indexOf('--out');
const outDir = outIndex === -1 ? join(root, 'src/dialects/compozy') : resolve(args[outIndex + 1] ?? '.');
const given = args.find((a, i) => !a.startsWith('--') && (outIndex === -1 || i !== outIndex + 1));
if (!given) fail(['usage: node scripts/gen-catalog.mjs path/to/compozy-events.next.json [--check]']);
const jsonPath = resolve(given);

/**
 * Release names for versions the file identifies by label only. The Network/Sandbox retirement
 * note is archived under v0.3.0 and shipped in a release of that line; SPEC §10 names it so.
 */
const RELEASE_NAMES = { 'retire-2026-09-27': 'v0.3.0' };

const { data, sha256 } = readSourceJson(jsonPath, fail);
const problems = [];
const has = (obj, key) => obj !== null && typeof obj === 'object' && Object.prototype.hasOwnProperty.call(obj, key);

for (const key of ['versions', 'families', 'events', 'payloads', 'patches']) {
  if (!has(data, key)) problems.push(`missing top-level key ${key}`);
}
if (problems.length) fail(problems);

const releases = buildReleases(data.versions);
const labels = new Set(releases.map((r) => r.label));
const nonLinear = new Set(releases.filter((r) => !r.linear).map((r) => r.label));

/** Checks a since/removed_in pair; removed_in never names a version outside the release order. */
function span(where, item) {
  const out = {};
  for (const key of ['since', 'removed_in']) {
    if (!has(item, key)) continue;
    const label = item[key];
    if (!labels.has(label)) problems.push(`${where}: ${key} "${label}" is not a version label`);
    else if (key === 'removed_in' && nonLinear.has(label))
      problems.push(`${where}: removed_in "${label}" is not linear`);
    out[key] = label;
  }
  return out;
}

const HOOKCTL_ADJUSTMENTS = [
  "context: compaction_trigger (matcher) and trigger (payload) hold in every release: hookctl's spec has used them since its first catalog; upstream adopted them in main-2026-10.",
  'context: compaction_reason and compaction_strategy are retired matcher keys in every release (SPEC §2.2: dropped with a warning), so no release accepts them as matcher fields.',
];

/** Per-event matcher payload paths read from a family's exceptions. */
const eventOverrides = {};
const families = {};
for (const [name, f] of Object.entries(data.families)) {
  const where = `families.${name}`;
  const matcherFields = [];
  for (const m of f.matcher_fields ?? []) {
    if (typeof m === 'string') matcherFields.push(m);
    else if (has(m, 'name')) {
      const s = span(`${where}.matcher_fields.${m.name}`, m);
      matcherFields.push(Object.keys(s).length ? { name: m.name, ...s } : m.name);
    } else problems.push(`${where}: malformed matcher field ${JSON.stringify(m)}`);
  }
  const { paths, perEvent } = payloadPaths(where, f.matcher_payload_fields ?? {});
  families[name] = { ...span(where, f), matcher_fields: matcherFields, matcher_payload_fields: paths };
  for (const [event, override] of Object.entries(perEvent)) {
    eventOverrides[event] = { ...eventOverrides[event], ...override };
  }
}

const events = [];
const seen = new Set();
for (const e of data.events) {
  const where = `events.${e.name}`;
  if (seen.has(e.name)) problems.push(`duplicate event ${e.name}`);
  seen.add(e.name);
  if (!has(families, e.family)) problems.push(`${where}: unknown family ${e.family}`);
  if (!has(data.payloads, e.payload)) problems.push(`${where}: unknown payload ${e.payload}`);
  if (!has(data.patches, e.patch)) problems.push(`${where}: unknown patch ${e.patch}`);
  const out = {
    name: e.name,
    family: e.family,
    sync_eligible: e.sync_eligible,
    deny: e.deny,
    deny_field: e.deny_field,
    guard: e.guard,
    payload: e.payload,
    patch: e.patch,
    summary: e.summary,
    ...span(where, e),
  };
  if (has(e, 'matcher_fields')) out.matcher_fields = e.matcher_fields;
  // The event that replaces a removed one, where the data names it (SPEC §10: the diagnostic names it).
  const replacement = e.replaced_by ?? e.replacement;
  if (replacement !== undefined) out.replaced_by = replacement;
  const own = has(e, 'matcher_payload_fields') ? payloadPaths(where, e.matcher_payload_fields).paths : undefined;
  const override = eventOverrides[e.name];
  if (own || override)
    out.matcher_payload_fields = { ...(own ?? families[e.family]?.matcher_payload_fields), ...override };
  const before = historyBefore(where, e, ['deny', 'deny_field', 'sync_eligible', 'guard']);
  if (before.length) out.before = before;
  if (![null, 'error', 'stop'].includes(e.deny)) problems.push(`${where}: deny ${e.deny}`);
  events.push(out);
}
for (const e of events) {
  if (e.replaced_by !== undefined && !seen.has(e.replaced_by))
    problems.push(`events.${e.name}: replaced_by names unknown event ${e.replaced_by}`);
}
for (const event of Object.keys(eventOverrides))
  if (!seen.has(event)) problems.push(`matcher_payload_fields names unknown event ${event}`);

const payloads = {};
for (const [name, t] of Object.entries(data.payloads)) payloads[name] = typeEntry(`payloads.${name}`, t, false);
const patches = {};
for (const [name, t] of Object.entries(data.patches)) patches[name] = typeEntry(`patches.${name}`, t, true);

applyHookctlAdjustments();
if (problems.length) fail(problems);

const header = [
  '// generated by scripts/gen-catalog.mjs from compozy-events.next.json — do not edit',
  `// source sha256: ${sha256}`,
  '/* eslint-disable */',
  '',
].join('\n');

const releasesFile = [
  header,
  "import type { ReleaseData, VersionedEventData, VersionedFamilyData } from './release-data.js';",
  '',
  lazyTable({
    doc: 'Every version the catalog knows, oldest first; `linear: false` is outside the release order.',
    name: 'compozyVersionedReleases',
    type: 'readonly ReleaseData[]',
    value: releases,
  }),
  '',
  lazyTable({
    doc: 'Families: matcher fields (strings hold in every release) and the payload path each reads where the names differ.',
    name: 'compozyVersionedFamilies',
    type: 'Readonly<Record<string, VersionedFamilyData>>',
    value: families,
  }),
  '',
  lazyTable({
    doc: 'Every event, in upstream catalog order, with the span of releases that have it.',
    name: 'compozyVersionedEvents',
    type: 'readonly VersionedEventData[]',
    value: events,
  }),
  '',
  lazyTable({
    doc: "What upstream data the catalog adjusted (the file's `adjustments`), then what hookctl adjusts.",
    name: 'compozyReleaseAdjustments',
    type: 'readonly string[]',
    value: [...(data.adjustments ?? []), ...HOOKCTL_ADJUSTMENTS],
  }),
  '',
].join('\n');

const typesFile = [
  header,
  "import type { VersionedPatchData, VersionedPayloadData } from './release-data.js';",
  '',
  '/** Payload types and the nested struct types they reference, by name. */',
  `export const COMPOZY_VERSIONED_PAYLOADS: Readonly<Record<string, VersionedPayloadData>> = ${literal(payloads)};`,
  '',
  '/** Patch types by name; `before` holds what changed in a later release. */',
  `export const COMPOZY_VERSIONED_PATCHES: Readonly<Record<string, VersionedPatchData>> = ${literal(patches)};`,
  '',
].join('\n');

const outputs = [
  [join(outDir, 'releases.generated.ts'), releasesFile],
  [join(outDir, 'release-types.generated.ts'), typesFile],
];

let stale = 0;
for (const [file, text] of outputs) {
  if (writeOrCheck({ tool: 'gen-catalog', root, file, text: await formatTypeScript(file, text), check })) stale++;
}
console.log(
  `gen-catalog: ${releases.length} versions (${releases.filter((r) => r.selectable).length} selectable), ` +
    `${events.length} events, ${Object.keys(families).length} families, ` +
    `${Object.keys(payloads).length} payload types, ${Object.keys(patches).length} patch types`,
);
if (stale) process.exit(1);

// ---------------------------------------------------------------------------------------------

function buildReleases(versions) {
  if (!Array.isArray(versions) || versions.length === 0) fail(['versions must be a non-empty list']);
  const out = [];
  let lastKnown;
  const seenLabels = new Set();
  for (const v of versions) {
    if (typeof v.label !== 'string' || v.label === '') fail([`version without label: ${JSON.stringify(v)}`]);
    if (seenLabels.has(v.label)) problems.push(`duplicate version label ${v.label}`);
    seenLabels.add(v.label);
    const linear = v.linear !== false;
    const catalog = typeof v.catalog === 'string' ? v.catalog : 'unknown';
    const known = catalog !== 'unknown';
    const entry = {
      label: v.label,
      name: v.version ?? RELEASE_NAMES[v.label] ?? v.label,
      kind: v.kind,
      date: v.date ?? null,
      catalog,
      linear,
      selectable: linear,
    };
    if (linear && !known) {
      if (!lastKnown) problems.push(`version ${v.label}: catalog unknown and no earlier version is known`);
      else entry.uses = lastKnown;
    }
    if (linear && known) lastKnown = v.label;
    out.push(entry);
  }
  return out;
}

/** `{key: "path"}` where a value may carry per-event exceptions: `profile (sandbox.prepare: profile.profile)`. */
function payloadPaths(where, map) {
  const paths = {};
  const perEvent = {};
  const pathRe = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;
  for (const [key, value] of Object.entries(map)) {
    const m = /^(\S+)(?:\s+\((.*)\))?$/.exec(String(value).trim());
    if (!m || !pathRe.test(m[1])) {
      problems.push(`${where}.matcher_payload_fields.${key}: cannot read "${value}"`);
      continue;
    }
    paths[key] = m[1];
    for (const part of m[2] ? m[2].split(';') : []) {
      const ex = /^\s*([a-z_][a-z0-9_.]*):\s*(\S+)\s*$/.exec(part);
      if (!ex || !pathRe.test(ex[2])) {
        problems.push(`${where}.matcher_payload_fields.${key}: cannot read exception "${part}"`);
        continue;
      }
      (perEvent[ex[1]] ??= {})[key] = ex[2];
    }
  }
  return { paths, perEvent };
}

/**
 * `history: [{version, change: "deny 'stop' -> null, deny_field 'deny' -> null: ..."}]` → `before:
 * [{until, values: {deny: 'stop', deny_field: 'deny'}}]`. Only the listed keys may change, and the
 * new value must be the entry's current one: a history the generator misreads fails loudly.
 */
function historyBefore(where, entry, keys) {
  const before = [];
  for (const h of entry.history ?? []) {
    if (!labels.has(h.version)) problems.push(`${where}.history: "${h.version}" is not a version label`);
    const values = {};
    const value = String.raw`'[^']*'|\[[^\]]*\]|null|true|false`;
    const re = new RegExp(String.raw`\b([a-z_]+) (${value}) -> (${value})`, 'g');
    for (const m of String(h.change).matchAll(re)) {
      const [, key, oldText, newText] = m;
      if (!keys.includes(key)) continue;
      const oldValue = readValue(oldText);
      const newValue = readValue(newText);
      if (JSON.stringify(newValue) !== JSON.stringify(entry[key])) {
        problems.push(`${where}.history: ${key} -> ${newText} is not its current value ${JSON.stringify(entry[key])}`);
      }
      values[key] = oldValue;
    }
    if (Object.keys(values).length === 0) problems.push(`${where}.history: no change read from "${h.change}"`);
    else before.push({ until: h.version, values });
  }
  return before;
}

function readValue(text) {
  if (text === 'null') return null;
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text.startsWith("'")) return text.slice(1, -1);
  const inner = text.slice(1, -1).trim();
  return inner === '' ? [] : inner.split(',').map((s) => s.trim());
}

function typeEntry(where, t, isPatch) {
  const fields = {};
  for (const [field, value] of Object.entries(t.fields ?? {})) {
    if (typeof value === 'string') {
      checkType(`${where}.${field}`, value);
      fields[field] = value;
      continue;
    }
    if (!has(value, 'type')) {
      problems.push(`${where}.${field}: no type`);
      continue;
    }
    checkType(`${where}.${field}`, value.type);
    const s = span(`${where}.${field}`, value);
    const out = { type: value.type, ...s };
    if (value.status === 'unverified') out.unverified = true;
    fields[field] = Object.keys(out).length === 1 ? value.type : out;
  }
  const out = { ...span(where, t), fields };
  if (t.enums) {
    for (const f of Object.keys(t.enums)) if (!has(fields, f)) problems.push(`${where}: enum for unknown field ${f}`);
    out.enums = t.enums;
  }
  if (isPatch) {
    if (!Array.isArray(t.applied)) problems.push(`${where}: applied is not a list`);
    else for (const f of t.applied) if (!has(fields, f)) problems.push(`${where}: applied field ${f} is not a field`);
    if (typeof t.observation_only !== 'boolean') problems.push(`${where}: observation_only is not a boolean`);
    out.applied = t.applied;
    out.observation_only = t.observation_only;
    if (t.applied_to) out.applied_to = t.applied_to;
    const before = historyBefore(where, t, ['applied', 'observation_only']);
    if (before.length) out.before = before;
  }
  return out;
}

function checkType(where, t) {
  const m = /^(?:array<)?object:([A-Za-z0-9_]+)>?$/.exec(t);
  if (m) {
    if (!has(data.payloads, m[1])) problems.push(`${where}: unknown nested type ${m[1]}`);
    return;
  }
  const plain = ['string', 'boolean', 'integer', 'number', 'object', 'json', 'string_map', 'array<string>'];
  if (!plain.includes(t)) problems.push(`${where}: unknown type ${t}`);
}

/** See HOOKCTL_ADJUSTMENTS. Each step first checks that the data is what it was written for. */
function applyHookctlAdjustments() {
  const context = families.context;
  if (!context) return problems.push('adjustment: no context family');
  const trigger = context.matcher_fields.find((m) => (typeof m === 'string' ? m : m.name) === 'compaction_trigger');
  if (!trigger) problems.push('adjustment: context has no compaction_trigger matcher field');
  context.matcher_fields = context.matcher_fields
    .map((m) => (typeof m === 'string' ? m : m.name === 'compaction_trigger' ? m.name : m))
    .filter((m) => {
      const name = typeof m === 'string' ? m : m.name;
      return name !== 'compaction_reason' && name !== 'compaction_strategy';
    });
  delete context.matcher_payload_fields.compaction_reason;
  delete context.matcher_payload_fields.compaction_strategy;
  const contextPayloads = events.filter((e) => e.family === 'context').map((e) => e.payload);
  for (const name of new Set(contextPayloads)) {
    const field = payloads[name]?.fields.trigger;
    if (field === undefined) problems.push(`adjustment: ${name} has no trigger field`);
    else payloads[name].fields.trigger = typeof field === 'string' ? field : field.type;
  }
}

/** JSON is a valid TypeScript expression; prettier (when present) makes it read like the rest of the code. */
function literal(value) {
  return JSON.stringify(value, null, 2);
}

function fail(list) {
  for (const p of list) console.error(`gen-catalog: ${p}`);
  process.exit(1);
}
