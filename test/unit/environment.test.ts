import { describe, expect, it } from 'vitest';
import {
  buildCompozyHookEnv,
  buildCoshHookEnv,
  dispatchDepthFromEnv,
  HOOK_ENV_ALLOWLIST,
  MAX_DISPATCH_DEPTH,
  resolveSecretEnv,
} from '../../src/exec/environment.js';

const invoking: NodeJS.ProcessEnv = {
  HOME: '/home/u',
  PATH: '/usr/bin:/bin',
  LANG: 'C.UTF-8',
  TERM: 'xterm',
  USER: 'u',
  AWS_SECRET_ACCESS_KEY: 'leak-me-not',
  GITHUB_TOKEN: 'ghp_leak',
  NODE_OPTIONS: '--inspect',
  HOOKCTL_DISPATCH_DEPTH: '7',
  MY_TOKEN: 's3cr3t-value',
  EMPTY_TOKEN: '',
};

describe('buildCompozyHookEnv', () => {
  it('lets only the allowlist through from the invoking environment', () => {
    const env = buildCompozyHookEnv(invoking, {}, {}, 0);
    expect(env).toEqual({
      HOME: '/home/u',
      PATH: '/usr/bin:/bin',
      LANG: 'C.UTF-8',
      TERM: 'xterm',
      USER: 'u',
      HOOKCTL_DISPATCH_DEPTH: '0',
    });
  });

  it('passes every allowlisted name and no other', () => {
    const all: NodeJS.ProcessEnv = { OTHER: 'x' };
    for (const name of HOOK_ENV_ALLOWLIST) all[name] = `v-${name}`;
    const env = buildCompozyHookEnv(all, {}, {}, 1);
    expect(Object.keys(env).sort()).toEqual([...HOOK_ENV_ALLOWLIST, 'HOOKCTL_DISPATCH_DEPTH'].sort());
    expect(HOOK_ENV_ALLOWLIST).toEqual([
      'COMSPEC',
      'HOME',
      'LANG',
      'LC_ALL',
      'LC_CTYPE',
      'LOGNAME',
      'PATH',
      'PATHEXT',
      'SHELL',
      'SYSTEMROOT',
      'TEMP',
      'TERM',
      'TMP',
      'TMPDIR',
      'USER',
      'USERPROFILE',
    ]);
  });

  it('layers declared env over the allowlist, secrets over declared env, and the depth over all', () => {
    const env = buildCompozyHookEnv(
      invoking,
      { PATH: '/opt/bin', POLICY: 'strict', API: 'declared', HOOKCTL_DISPATCH_DEPTH: '99' },
      { API: 'secret', HOOKCTL_DISPATCH_DEPTH: '98' },
      2,
    );
    expect(env.PATH).toBe('/opt/bin');
    expect(env.POLICY).toBe('strict');
    expect(env.API).toBe('secret');
    expect(env.HOOKCTL_DISPATCH_DEPTH).toBe('2');
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
  });
});

describe('buildCoshHookEnv', () => {
  it('passes the whole invoking environment, then the hook env, then the depth', () => {
    const env = buildCoshHookEnv(invoking, { POLICY: 'strict', HOME: '/elsewhere', HOOKCTL_DISPATCH_DEPTH: '9' }, 1);
    expect(env.NODE_OPTIONS).toBe('--inspect');
    expect(env.GITHUB_TOKEN).toBe('ghp_leak');
    expect(env.HOME).toBe('/elsewhere');
    expect(env.POLICY).toBe('strict');
    expect(env.HOOKCTL_DISPATCH_DEPTH).toBe('1');
    expect(Object.values(env).every((v) => typeof v === 'string')).toBe(true);
  });
});

describe('resolveSecretEnv', () => {
  it('reads env: references from the invoking environment', () => {
    expect(resolveSecretEnv({ API_TOKEN: 'env:MY_TOKEN' }, invoking)).toEqual({ env: { API_TOKEN: 's3cr3t-value' } });
    expect(resolveSecretEnv({}, invoking)).toEqual({ env: {} });
  });

  it('fails for an unset or empty variable, naming the reference but no value', () => {
    const unset = resolveSecretEnv({ API_TOKEN: 'env:NOT_SET' }, invoking);
    expect(unset).toEqual({
      error: 'secret_env.API_TOKEN: environment variable "NOT_SET" (from "env:NOT_SET") is not set or empty',
    });
    const empty = resolveSecretEnv({ API_TOKEN: 'env:EMPTY_TOKEN' }, invoking);
    expect('error' in empty && empty.error).toContain('"EMPTY_TOKEN"');
    expect(resolveSecretEnv({ A: 'env:' }, invoking)).toEqual({
      error: 'secret_env.A: reference "env:" names no variable',
    });
  });

  it('cannot resolve vault references and says so, naming the reference', () => {
    const r = resolveSecretEnv({ DB_PASSWORD: 'vault:hooks/db/password' }, invoking);
    expect(r).toEqual({
      error:
        'secret_env.DB_PASSWORD: "vault:hooks/db/password" cannot be resolved by hookctl: vault references are not supported',
    });
  });

  it('does not echo a reference of unknown form (it may be a pasted secret) nor any resolved value', () => {
    const r = resolveSecretEnv({ API_TOKEN: 'env:MY_TOKEN', OTHER: 'ghp_pastedSecretValue' }, invoking);
    expect('error' in r).toBe(true);
    const text = 'error' in r ? r.error : '';
    expect(text).toBe('secret_env.OTHER: unsupported secret reference (want "env:NAME" or "vault:...")');
    expect(text).not.toContain('ghp_');
    expect(text).not.toContain('s3cr3t');
  });
});

describe('dispatchDepthFromEnv', () => {
  it.each([
    [undefined, 0],
    ['', 0],
    ['0', 0],
    ['2', 2],
    [' 3 ', 3],
    ['4', 4],
    ['-1', 0],
    ['1.5', 0],
    ['abc', 0],
    ['0x2', 0],
  ])('HOOKCTL_DISPATCH_DEPTH=%j → %d', (value, depth) => {
    expect(dispatchDepthFromEnv(value === undefined ? {} : { HOOKCTL_DISPATCH_DEPTH: value })).toBe(depth);
  });

  it('allows 3 nested dispatches', () => {
    expect(MAX_DISPATCH_DEPTH).toBe(3);
  });
});
