import { describe, expect, it } from 'vitest';
import { HookctlError } from '../../src/errors.js';
import {
  changesFromFlags,
  parseUnsetKey,
  type DeclarationFlags,
} from '../../src/dialects/compozy/edit/flags-to-fields.js';

function usage(flags: DeclarationFlags): HookctlError {
  try {
    changesFromFlags(flags);
  } catch (err) {
    if (err instanceof HookctlError) return err;
    throw err;
  }
  throw new Error('expected a usage error');
}

describe('changesFromFlags', () => {
  it('maps every flag to the field it sets, in canonical order', () => {
    expect(
      changesFromFlags({
        matcher: ['tool_id=compozy__*', 'run_id=r-*', 'autonomy.loop_name=nightly', 'tool_read_only=false'],
        env: ['A=1', 'URL=https://x.test/?a=b'],
        arg: ['-c', 'echo hi'],
        command: '/bin/sh',
        timeout: ' 1m30s ',
        priority: '-5',
        required: true,
        mode: 'sync',
        event: ' tool.pre_call ',
      }),
    ).toEqual([
      { path: ['event'], value: 'tool.pre_call' },
      { path: ['mode'], value: 'sync' },
      { path: ['required'], value: true },
      { path: ['priority'], value: -5 },
      { path: ['timeout'], value: '1m30s' },
      { path: ['command'], value: '/bin/sh' },
      { path: ['args'], value: ['-c', 'echo hi'] },
      { path: ['env', 'A'], value: '1' },
      { path: ['env', 'URL'], value: 'https://x.test/?a=b' },
      { path: ['matcher', 'tool_id'], value: 'compozy__*' },
      { path: ['matcher', 'autonomy', 'run_id'], value: 'r-*' },
      { path: ['matcher', 'autonomy', 'loop_name'], value: 'nightly' },
      { path: ['matcher', 'tool_read_only'], value: false },
    ]);
  });

  it('keeps an empty pattern (it matches everything) and --no-required', () => {
    expect(changesFromFlags({ matcher: ['tool_id='], required: false })).toEqual([
      { path: ['required'], value: false },
      { path: ['matcher', 'tool_id'], value: '' },
    ]);
  });

  it('passes values that parse but are invalid on to validation', () => {
    expect(changesFromFlags({ timeout: '-5s', priority: '3000000000', matcher: ['agent_type=x'] })).toEqual([
      { path: ['priority'], value: 3000000000 },
      { path: ['timeout'], value: '-5s' },
      { path: ['matcher', 'agent_type'], value: 'x' },
    ]);
    expect(changesFromFlags({ priority: '9223372036854775807' })).toEqual([
      { path: ['priority'], value: 9223372036854775807n },
    ]);
  });

  it('puts removals last', () => {
    expect(changesFromFlags({ timeout: '1s', unset: ['env.FOO', 'matcher.run_id'] })).toEqual([
      { path: ['timeout'], value: '1s' },
      { path: ['env', 'FOO'] },
      { path: ['matcher', 'autonomy', 'run_id'] },
    ]);
  });

  it.each<[string, DeclarationFlags, string]>([
    ['a priority that is not an integer', { priority: 'abc' }, '--priority expects an integer, got "abc"'],
    ['a fractional priority', { priority: '1.5' }, '--priority expects an integer, got "1.5"'],
    [
      'a priority beyond 64 bits',
      { priority: '9223372036854775808' },
      '--priority 9223372036854775808 is not a 64-bit integer',
    ],
    [
      'a timeout that is not a duration',
      { timeout: 'soon' },
      '--timeout expects a Go duration such as "250ms", "5s" or "1m30s", got "soon"',
    ],
    [
      'a timeout without a unit',
      { timeout: '5' },
      '--timeout expects a Go duration such as "250ms", "5s" or "1m30s", got "5"',
    ],
    ['a matcher without =', { matcher: ['tool_id'] }, '--matcher expects FIELD=PATTERN, got "tool_id"'],
    ['a matcher without a field', { matcher: ['=x'] }, '--matcher expects FIELD=PATTERN, got "=x"'],
    ['a matcher field that is not a name', { matcher: ['a.b=x'] }, '--matcher: "a.b" is not a matcher field name'],
    [
      'a boolean matcher that is not a boolean',
      { matcher: ['tool_read_only=maybe'] },
      '--matcher tool_read_only expects true or false, got "maybe"',
    ],
    ['an env without =', { env: ['FOO'] }, '--env expects K=V, got "FOO"'],
    ['removing a required field', { unset: ['command'] }, '--unset command: command is required and cannot be removed'],
    [
      'removing and setting the same key',
      { env: ['A=1'], unset: ['env.A'] },
      '--unset env.A conflicts with the value given for env.A',
    ],
  ])('refuses %s as a usage error (exit 2)', (_what, flags, message) => {
    const err = usage(flags);
    expect(err.code).toBe('usage_error');
    expect(err.exit).toBe(2);
    expect(err.message).toBe(message);
  });
});

describe('parseUnsetKey', () => {
  it.each([
    ['timeout', ['timeout']],
    ['args', ['args']],
    ['enabled', ['enabled']],
    ['env.FOO', ['env', 'FOO']],
    ['secret_env.API', ['secret_env', 'API']],
    ['metadata.owner', ['metadata', 'owner']],
    ['matcher.tool_id', ['matcher', 'tool_id']],
    ['matcher.workflow_id', ['matcher', 'autonomy', 'workflow_id']],
    ['matcher.autonomy.workflow_id', ['matcher', 'autonomy', 'workflow_id']],
  ])('%s → %j', (key, path) => {
    expect(parseUnsetKey(key).path).toEqual(path);
  });

  it.each(['matcher', 'env', 'executor', 'env.', 'bogus'])('refuses %j with the list of keys it removes', (key) => {
    expect(() => parseUnsetKey(key)).toThrow(/is not a key hookctl removes|is not a matcher field name/);
  });
});
