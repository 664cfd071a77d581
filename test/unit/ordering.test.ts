import { describe, expect, it } from 'vitest';
import type { Declaration, SkillSource, Source } from '../../src/declarations/model.js';
import { compareCodePoints } from '../../src/declarations/code-points.js';
import { DEFAULT_PRIORITY, orderDeclarations } from '../../src/dialects/compozy/rules/ordering.js';

let seq = 0;
function decl(name: string, source: Source, over: Partial<Declaration> = {}): Declaration {
  return {
    dialect: source.startsWith('cosh') ? 'cosh' : 'compozy',
    name,
    event: 'tool.pre_call',
    source,
    mode: 'sync',
    required: false,
    priority: source.startsWith('cosh') ? 0 : DEFAULT_PRIORITY[source as keyof typeof DEFAULT_PRIORITY],
    timeout_ms: 0,
    enabled: true,
    metadata: {},
    matcher: {},
    executor_kind: 'subprocess',
    command: 'x',
    args: [],
    env: {},
    secret_env: {},
    cwd: '/ws',
    location: { file: '/f', line: ++seq },
    status: 'active',
    ...over,
  };
}

const names = (ds: { name: string | null }[]) => ds.map((d) => d.name);

describe('orderDeclarations (SPEC §2.3)', () => {
  it('source always beats priority', () => {
    const out = orderDeclarations([
      decl('skill-high', 'skill', { priority: 5000 }),
      decl('agent', 'agent_definition'),
      decl('ext-low', 'extension', { priority: -10 }),
      decl('cfg', 'config', { priority: 1 }),
      decl('native', 'native'),
    ]);
    expect(names(out)).toEqual(['native', 'cfg', 'ext-low', 'agent', 'skill-high']);
    expect(out.map((d) => d.order)).toEqual([1, 2, 3, 4, 5]);
  });

  it('higher priority first within a source, then name by code point', () => {
    const out = orderDeclarations([
      decl('b', 'config'),
      decl('a', 'config', { priority: 10 }),
      decl('c', 'config', { priority: 900 }),
      decl('a', 'config'),
      decl('B', 'config'),
    ]);
    expect(names(out)).toEqual(['c', 'B', 'a', 'b', 'a']);
  });

  it('skill hooks of equal priority sort by skill source, then name', () => {
    const skill = (name: string, skill_source: SkillSource, priority = 0) =>
      decl(name, 'skill', { skill_source, priority });
    const out = orderDeclarations([
      skill('a', 'workspace'),
      skill('z', 'bundled'),
      skill('m', 'user'),
      skill('b', 'additional'),
      skill('y', 'marketplace'),
      skill('top', 'workspace', 7),
    ]);
    expect(names(out)).toEqual(['top', 'z', 'y', 'm', 'b', 'a']);
  });

  it('names compare by code point, not UTF-16 units or locale', () => {
    // U+FF5E (fullwidth tilde) < U+1F600 (emoji, a surrogate pair) by code point, not by UTF-16.
    const out = orderDeclarations([
      decl('\u{1F600}', 'config'),
      decl('\uFF5E', 'config'),
      decl('Z', 'config'),
      decl('a', 'config'),
      decl('é', 'config'),
    ]);
    expect(names(out)).toEqual(['Z', 'a', 'é', '\uFF5E', '\u{1F600}']);
    expect(compareCodePoints('\uFF5E', '\u{1F600}')).toBeLessThan(0);
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('same', 'same')).toBe(0);
  });

  it('orders per event; order counts active declarations only, others keep their place', () => {
    const out = orderDeclarations([
      decl('x', 'config', { event: 'session.post_create' }),
      decl('b', 'config', { status: 'disabled' }),
      decl('a', 'config'),
      decl('c', 'config', { status: 'blocked' }),
      decl('d', 'config'),
      decl('y', 'config', { event: 'session.post_create' }),
    ]);
    expect(out.map((d) => [d.event, d.name, d.order])).toEqual([
      ['session.post_create', 'x', 1],
      ['session.post_create', 'y', 2],
      ['tool.pre_call', 'a', 1],
      ['tool.pre_call', 'b', null],
      ['tool.pre_call', 'c', null],
      ['tool.pre_call', 'd', 2],
    ]);
  });

  it('is stable for equal keys and keeps cosh declarations in loader order', () => {
    const first = decl('same', 'config');
    const second = decl('same', 'config');
    const out = orderDeclarations([first, second]);
    expect(out.map((d) => d.location.line)).toEqual([first.location.line, second.location.line]);
    const cosh = orderDeclarations([
      decl('z', 'cosh_config'),
      decl(null as unknown as string, 'cosh_config', { status: 'skipped' }),
      decl('a', 'cosh_config'),
    ]);
    expect(names(cosh)).toEqual(['z', null, 'a']);
  });

  it('does not mutate its input', () => {
    const input = [decl('b', 'config'), decl('a', 'config')];
    orderDeclarations(input);
    expect(names(input)).toEqual(['b', 'a']);
    expect('order' in input[0]!).toBe(false);
  });

  it('in place, numbers the given objects and gives the same result, key order included', () => {
    const input = [
      decl('b', 'config', { event: 'z.event' }),
      decl('a', 'skill', { skill_source: 'user', why: 'w' }),
      decl('c', 'config', { status: 'disabled' }),
      decl('d', 'native', { event: 'a.event' }),
    ];
    const copied = JSON.stringify(orderDeclarations(structuredClone(input)));
    const inPlace = orderDeclarations(input, { inPlace: true });
    expect(JSON.stringify(inPlace)).toBe(copied);
    expect(inPlace.every((d) => input.includes(d))).toBe(true);
  });

  it('orders 10,000 declarations quickly', () => {
    const sources: Source[] = ['native', 'config', 'extension', 'agent_definition', 'skill'];
    const skillSources: SkillSource[] = ['bundled', 'marketplace', 'user', 'additional', 'workspace'];
    const many = Array.from({ length: 10_000 }, (_, i) =>
      decl(`hook-${(i * 7919) % 10_000}`, sources[i % 5]!, {
        event: `event.${i % 40}`,
        priority: (i * 31) % 11,
        skill_source: skillSources[i % 5],
      }),
    );
    const start = performance.now();
    const out = orderDeclarations(many);
    const elapsed = performance.now() - start;
    expect(out).toHaveLength(10_000);
    expect(elapsed).toBeLessThan(1500); // ~30 ms alone; generous for a loaded CI machine
    // The invariant between neighbours of one event.
    const broken = out.filter((b, i) => {
      const a = out[i - 1];
      if (a === undefined || a.event !== b.event) return false;
      const bySource = sources.indexOf(a.source) - sources.indexOf(b.source);
      return bySource > 0 || (bySource === 0 && a.priority! < b.priority!); // compozy priorities are numbers
    });
    expect(broken).toEqual([]);
  });
});
