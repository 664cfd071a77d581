// The results table: markdown for people, JSON for machines (bench/.work/results.json).
import { cpus, loadavg } from 'node:os';
import { execFileSync } from 'node:child_process';

/** Whether `value` meets `target` ({ op: '<=' | '<', value }). */
export function meets(value, target) {
  return target.op === '<' ? value < target.value : value <= target.value;
}

function fmt(value, unit) {
  if (unit === '×') return `${value.toFixed(2)}×`;
  if (unit === 'ms') return `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`;
  if (unit === 'MB') return `${value.toFixed(1)} MB`;
  return String(value);
}

/**
 * A results row. `target` is optional (informative rows); `aim` is a softer goal shown beside
 * the target (SPEC §11: start-up ≤ 3×, aim 2.5×); `extra` holds figures for results.json; `env`
 * names the environment it was measured in (ratioRows sets it per mode; default clean).
 */
export function row({ id, figure, unit, median, min, max, target, aim, detail, extra, env }) {
  const met = target ? meets(median, target) : null;
  return {
    id,
    figure,
    unit,
    median,
    min,
    max,
    target: target ?? null,
    aim: aim ?? null,
    met,
    aimMet: aim === undefined ? null : median <= aim,
    detail: detail ?? '',
    env: env ?? 'clean',
    ...(extra ? { extra } : {}),
  };
}

export function markdownTable(rows, { smoke }) {
  const lines = [
    '| figure | environment | measured (median) | min–max | CPU-time ratio | target | met? |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    let target = r.target ? `${r.target.op === '<' ? '<' : '≤'} ${fmt(r.target.value, r.unit)}` : '—';
    if (r.aim !== null) target += ` (aim ${fmt(r.aim, r.unit)})`;
    let met = r.target === null ? '—' : smoke ? '(smoke)' : r.met ? 'yes' : '**no**';
    if (!smoke && r.aimMet !== null && r.met) met += r.aimMet ? ', aim met' : ', aim not met';
    const range = r.min === r.max ? '—' : `${fmt(r.min, r.unit)} – ${fmt(r.max, r.unit)}`;
    const cpu = typeof r.extra?.cpuRatio === 'number' ? `${r.extra.cpuRatio.toFixed(2)}×` : '—';
    lines.push(`| ${r.figure} | ${r.env} | ${fmt(r.median, r.unit)} | ${range} | ${cpu} | ${target} | ${met} |`);
  }
  return lines.join('\n');
}

export function detailLines(rows) {
  return rows.filter((r) => r.detail).map((r) => `- ${r.figure} [${r.env}]: ${r.detail}`);
}

/** The machine, for the record: core count, CPU model, Node version, load before the run. */
export function machine() {
  let model = cpus()[0]?.model ?? 'unknown';
  model = model.replace(/\s+/g, ' ').trim();
  let kernel = '';
  try {
    kernel = execFileSync('uname', ['-sr'], { encoding: 'utf8' }).trim();
  } catch {
    // not a Unix
  }
  return {
    nproc: cpus().length,
    cpu: model,
    node: process.version,
    os: kernel,
    loadavg: loadavg().map((l) => Number(l.toFixed(2))),
  };
}
