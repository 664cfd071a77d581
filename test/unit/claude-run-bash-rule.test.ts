// Bash `if` rules (claude.md §4.2) on the real shell parser.
import { describe, expect, it } from 'vitest';
import {
  BASH_RULE_BOUNDS,
  bashPattern,
  evaluateBashPattern,
  namesMoreThanCommandWord,
  splitShellCommand,
} from '../../src/dialects/claude/rules/bash-rule.js';

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
    expect(bashPattern('git *').test('git')).toBe(true);
    expect(bashPattern('git *').test('git push')).toBe(true);
    expect(bashPattern('git *').test('gitk')).toBe(false);
    expect(bashPattern('git push*').test('git push --force')).toBe(true);
    expect(bashPattern('rm -rf /').test('rm -rf /tmp')).toBe(false);
    expect(bashPattern('npm run (x)').test('npm run (x)')).toBe(true);
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

describe('the legacy :* suffix and runs of white space (claude.md §4.2)', () => {
  it('reads a trailing ":*" as " *", and a ":*" anywhere else as two characters', async () => {
    for (const command of ['git commit', 'git commit -m x', 'FOO=1 git commit --amend']) {
      expect((await evaluateBashPattern('git commit:*', command)).verdict).toBe('match');
    }
    expect((await evaluateBashPattern('git commit:*', 'git commitx')).verdict).toBe('no_match');
    expect((await evaluateBashPattern('git:* push', 'git push')).verdict).toBe('no_match');
    expect(bashPattern('git:* push').test('git:x push')).toBe(true);
    expect(namesMoreThanCommandWord('git:*')).toBe(false);
    expect(namesMoreThanCommandWord('git commit:*')).toBe(true);
  });

  it('counts runs of spaces and tabs outside quotes as one space', async () => {
    expect((await evaluateBashPattern('git commit *', 'git   commit -m x')).verdict).toBe('match');
    expect((await evaluateBashPattern('git commit:*', 'git \t commit')).verdict).toBe('match');
    expect((await splitShellCommand('echo  "a   b"   \'c  d\'  e\\  f'))?.subcommands).toEqual([
      'echo "a   b" \'c  d\' e\\  f',
    ]);
  });
});

describe('bounds: no command crashes or stalls the rule (issue 24)', () => {
  it('splits a 40 KB && chain and 300 nested $() without overflowing the stack', async () => {
    const chain = Array.from({ length: 8000 }, (_, i) => `c${i}`).join(' && ');
    expect(chain.length).toBeGreaterThan(40_000);
    const split = await splitShellCommand(chain);
    expect(split?.subcommands).toHaveLength(8000);
    expect(split?.subcommands.slice(0, 2)).toEqual(['c0', 'c1']);
    expect(split?.subcommands.at(-1)).toBe('c7999');
    expect((await evaluateBashPattern('c7999', chain)).verdict).toBe('match');
    const nested = 'echo ' + '$(echo '.repeat(300) + 'x' + ')'.repeat(300);
    expect((await splitShellCommand(nested))?.subcommands).toHaveLength(301);
  });

  it('fails open past a bound: the command line, the nested text, the cost of matching', async () => {
    const long = 'git ' + 'a'.repeat(BASH_RULE_BOUNDS.commandChars);
    expect(await evaluateBashPattern('git *', long)).toEqual({
      verdict: 'fail_open',
      why: 'the command is longer than 100,000 characters',
    });
    // Every $() repeats the text inside it: 3,000 levels are ~36 M characters of subcommands.
    const deep = 'echo ' + '$(echo '.repeat(3000) + 'x' + ')'.repeat(3000);
    expect(await evaluateBashPattern('rm *', deep)).toEqual({
      verdict: 'fail_open',
      why: 'its subcommands are longer than 1,000,000 characters together (nested $() or backticks)',
    });
    const arg = 'git ' + 'a'.repeat(90_000);
    expect(await evaluateBashPattern('git ' + '*a'.repeat(200), arg)).toEqual({
      verdict: 'fail_open',
      why: 'the pattern and the command are too long to match within bounds',
    });
  });

  it('matches without backtracking: git *-*-*-*-*-*-X against a long argument', () => {
    // The regular expression this pattern used to become took over 60 s on such a line.
    const pattern = bashPattern('git *-*-*-*-*-*-X');
    expect(pattern.test('git ' + '-'.repeat(50_000))).toBe(false);
    expect(pattern.test('git a-b-c-d-e-f-X')).toBe(true);
    expect(pattern.test('git ------X')).toBe(true);
    expect(pattern.test('git -----X')).toBe(false);
    expect(bashPattern('*').test('')).toBe(true);
    expect(bashPattern('a*b*c').test('abcbc')).toBe(true);
    expect(bashPattern('a*b*c').test('abcb')).toBe(false);
    expect(bashPattern('echo *').test('echo a\nb')).toBe(true); // * spans newlines
  });
});
