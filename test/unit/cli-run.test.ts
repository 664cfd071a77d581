// Which invocations bin/run.js runs directly, and which it leaves to oclif's main.run.
import { describe, expect, it } from 'vitest';
import { directCommand, quietLogger, type CommandLookup } from '../../src/cli/run.js';

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
