// Which invocations bin/run.js runs directly, and which it leaves to oclif's main.run.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  directCommand,
  installPlatformShortcut,
  isCertainlyNotWsl,
  oclifOsModulePath,
  quietLogger,
  withPlainIdOrder,
  type CommandLookup,
} from '../../src/cli/run.js';

const ids = ['hooks:list', 'hooks:fire', 'hooks:info'];
const config: CommandLookup = {
  topicSeparator: ' ',
  commandIDs: ids,
  findCommand: (id: string) => (ids.includes(id) ? { id } : undefined),
  pjson: { oclif: {} },
};

describe('directCommand', () => {
  it('runs `topic command [args]` directly', () => {
    expect(directCommand(config, ['hooks', 'list', '-o', 'json'])).toEqual({ id: 'hooks:list', argv: ['-o', 'json'] });
    expect(directCommand(config, ['hooks', 'info', 'x'])).toEqual({ id: 'hooks:info', argv: ['x'] });
  });

  it('leaves help, versions, topics and unknown commands to oclif', () => {
    expect(directCommand(config, [])).toBeUndefined();
    expect(directCommand(config, ['hooks'])).toBeUndefined();
    expect(directCommand(config, ['--version'])).toBeUndefined();
    expect(directCommand(config, ['hooks', 'list', '--help'])).toBeUndefined();
    expect(directCommand(config, ['hooks', 'nope'])).toBeUndefined();
    expect(directCommand(config, ['hooks:list'])).toBeUndefined();
    expect(directCommand(config, ['hooks', '--json'])).toBeUndefined();
  });

  it('treats --help after `--` as an argument', () => {
    expect(directCommand(config, ['hooks', 'info', '--', '--help'])).toEqual({
      id: 'hooks:info',
      argv: ['--', '--help'],
    });
  });

  it('honours additional help flags and a deeper command id', () => {
    const withH = { ...config, pjson: { oclif: { additionalHelpFlags: ['-h'] } } };
    expect(directCommand(withH, ['hooks', 'list', '-h'])).toBeUndefined();
    const deeper = { ...config, commandIDs: [...ids, 'hooks:list:all'] };
    expect(directCommand(deeper, ['hooks', 'list'])).toBeUndefined();
  });

  it('needs the space topic separator', () => {
    expect(directCommand({ ...config, topicSeparator: ':' }, ['hooks', 'list'])).toBeUndefined();
  });
});

describe('quietLogger', () => {
  it("is oclif's own logger (undefined) when DEBUG is set", () => {
    expect(quietLogger({ DEBUG: '*' })).toBeUndefined();
  });

  it('otherwise does nothing, and has the shape oclif checks', () => {
    const logger = quietLogger({})!;
    expect(logger.namespace).toBe('oclif');
    for (const level of ['debug', 'error', 'info', 'trace', 'warn'] as const)
      expect(logger[level]('x %s', 'y')).toBeUndefined();
    expect(logger.child('config').namespace).toBe('oclif:config');
  });
});

describe('withPlainIdOrder', () => {
  const realCompare = String.prototype.localeCompare;
  const sign = (n: number) => Math.sign(n);

  it('orders ids of [a-z:-] exactly as ICU does (200,000 random pairs)', async () => {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz:-';
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const word = () =>
      Array.from({ length: 1 + Math.floor(random() * 8) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(
        '',
      );
    const pairs = Array.from({ length: 200_000 }, () => [word(), word()] as const);
    const expected = pairs.map(([a, b]) => sign(realCompare.call(a, b)));
    const got = await withPlainIdOrder(async () => pairs.map(([a, b]) => sign(a.localeCompare(b))));
    expect(got).toEqual(expected);
  });

  it('hands other strings and calls with locales to the real localeCompare, and restores it after', async () => {
    await withPlainIdOrder(async () => {
      expect(String.prototype.localeCompare).not.toBe(realCompare);
      expect(sign('a'.localeCompare('B'))).toBe(-1); // ICU: a < B (code units: B < a)
      expect(sign('ä'.localeCompare('b'))).toBe(-1);
      expect(sign('a'.localeCompare('b', 'sv', { sensitivity: 'base' }))).toBe(-1);
    });
    expect(String.prototype.localeCompare).toBe(realCompare);
    await expect(
      withPlainIdOrder(async () => {
        throw new Error('load failed');
      }),
    ).rejects.toThrow('load failed');
    expect(String.prototype.localeCompare).toBe(realCompare);
  });

  it("sorts hookctl's own command ids as the real localeCompare does", async () => {
    const ids = ['hooks:validate', 'hooks:list', 'hooks:create', 'hooks:enable', 'hooks:delete'];
    const sorted = await withPlainIdOrder(async () => [...ids].sort((a, b) => a.localeCompare(b)));
    expect(sorted).toEqual([...ids].sort((a, b) => realCompare.call(a, b)));
  });
});

describe('installPlatformShortcut', () => {
  const require = createRequire(import.meta.url);

  it("relies on what oclif's files do: config.js reads getPlatform off util/os.js at each call", () => {
    const osPath = oclifOsModulePath();
    expect(readFileSync(osPath, 'utf8')).toContain('exports.getPlatform = getPlatform;');
    const configJs = readFileSync(join(osPath, '..', '..', 'config', 'config.js'), 'utf8');
    expect(configJs).toContain('await (0, os_1.getPlatform)()');
    expect(configJs).toContain('require("../util/os")');
  });

  it('says "not WSL" exactly when is-wsl does, here', async () => {
    const isWsl = (await import('is-wsl')).default as boolean;
    expect(isCertainlyNotWsl()).toBe(!isWsl);
  });

  it("answers what oclif's getPlatform answers, once installed", async () => {
    const os = require(oclifOsModulePath()) as { getPlatform: () => Promise<string> };
    const original = os.getPlatform;
    const expected = await original();
    installPlatformShortcut();
    installPlatformShortcut(); // a second install keeps the first
    try {
      expect(os.getPlatform).not.toBe(original);
      expect(await os.getPlatform()).toBe(expected);
    } finally {
      os.getPlatform = original;
    }
  });
});
