// Bash `if` rules (claude.md §4.2) on the real shell parser.
import { describe, expect, it } from 'vitest';
import {
  bashPatternRegex,
  evaluateBashPattern,
  namesMoreThanCommandWord,
  splitShellCommand,
} from '../../src/dialects/claude/bash-rule.js';

describe('splitShellCommand', () => {
  it('splits at &&, ;, |, ||, |&, & and newlines, and descends into $() and backticks', async () => {
    const split = await splitShellCommand('A=1 B=2 git push origin && echo $(ls | grep x) `date`; y || z & w\nq |& r');
    expect(split?.subcommands).toEqual([
      'git push origin',
      'echo $(ls | grep x) `date`',
      'ls',
      'grep x',
      'date',
      'y',
      'z',
      'w',
      'q',
      'r',
    ]);
    expect(split?.hasExpansion).toBe(true);
  });

  it('strips leading assignments, keeps non-ASCII text whole, and finds commands in compound ones', async () => {
    expect((await splitShellCommand('é=1 echo ä && git push'))?.subcommands).toEqual(['echo ä', 'git push']);
    expect((await splitShellCommand('if true; then rm -rf /tmp/x; fi'))?.subcommands).toEqual([
      'true',
      'rm -rf /tmp/x',
    ]);
    expect((await splitShellCommand('export X=1; (cd a && make) > log 2>&1'))?.subcommands).toEqual([
      'export X=1',
      'cd a',
      'make',
    ]);
    expect((await splitShellCommand('A=1'))?.subcommands).toEqual([]);
  });

  it('sees $VAR and ${VAR} but not text in single quotes', async () => {
    expect((await splitShellCommand('git push $REMOTE'))?.hasExpansion).toBe(true);
    expect((await splitShellCommand('git push "${REMOTE}"'))?.hasExpansion).toBe(true);
    expect((await splitShellCommand("echo '$HOME'"))?.hasExpansion).toBe(false);
  });

  it('gives up on text that does not parse', async () => {
    expect(await splitShellCommand('echo "unterminated')).toBeUndefined();
    expect(await splitShellCommand('echo )')).toBeUndefined();
  });
});

describe('patterns', () => {
  it('matches a whole subcommand, * as any run, trailing " *" also the bare word', () => {
    expect(bashPatternRegex('git *').test('git')).toBe(true);
    expect(bashPatternRegex('git *').test('git push')).toBe(true);
    expect(bashPatternRegex('git *').test('gitk')).toBe(false);
    expect(bashPatternRegex('git push*').test('git push --force')).toBe(true);
    expect(bashPatternRegex('rm -rf /').test('rm -rf /tmp')).toBe(false);
    expect(bashPatternRegex('npm run (x)').test('npm run (x)')).toBe(true);
  });

  it('knows when a pattern names more than the command word', () => {
    expect(namesMoreThanCommandWord('git *')).toBe(false);
    expect(namesMoreThanCommandWord('git')).toBe(false);
    expect(namesMoreThanCommandWord('git push *')).toBe(true);
  });
});

describe('evaluateBashPattern', () => {
  it('matches any subcommand, including one inside $()', async () => {
    expect(await evaluateBashPattern('git push *', 'cd repo && git push origin main')).toEqual({
      verdict: 'match',
      why: 'subcommand "git push origin main" matches',
    });
    expect((await evaluateBashPattern('rm *', 'echo $(rm -rf x)')).verdict).toBe('match');
    expect((await evaluateBashPattern('git push *', 'git status; ls')).verdict).toBe('no_match');
  });

  it('fails open on unparsable text, and on expansions when the pattern names more than the command word', async () => {
    expect((await evaluateBashPattern('git push *', 'git "push')).verdict).toBe('fail_open');
    expect((await evaluateBashPattern('git push *', 'git $CMD origin')).verdict).toBe('fail_open');
    expect((await evaluateBashPattern('rm *', 'git $CMD origin')).verdict).toBe('no_match');
    expect((await evaluateBashPattern('git *', 42)).verdict).toBe('fail_open');
  });
});
