import { describe, expect, it } from 'vitest';
import { compozyEvent } from '../../src/dialects/compozy/events.js';
import { payloadType } from '../../src/dialects/compozy/payload-types.js';
import { MAX_PAYLOAD_NESTING, parsePayload } from '../../src/app/fire.js';
import { fillCompozyBase } from '../../src/dialects/compozy/fire.js';
import { assertSessionId } from '../../src/ledger/ids.js';

const fieldsOf = (event: string) => payloadType(compozyEvent(event)!.payload)!.fields;
const base = { event: 'E', sessionId: 's1', workspace: '/ws', now: new Date('2026-01-02T03:04:05.678Z') };

describe('fillCompozyBase', () => {
  it('fills the four base fields when the payload type has them and the caller left them out', () => {
    expect(fillCompozyBase({ prompt: 'p' }, fieldsOf('prompt.post_assemble'), base)).toEqual({
      prompt: 'p',
      event: 'E',
      timestamp: '2026-01-02T03:04:05.678Z',
      session_id: 's1',
      workspace: '/ws',
    });
  });

  it('keeps what the caller set', () => {
    const given = { event: 'x', timestamp: 't', session_id: 'mine', workspace: '/other' };
    expect(fillCompozyBase(given, fieldsOf('tool.pre_call'), base)).toEqual(given);
  });

  it('adds no field the event payload does not have', () => {
    // automation.job.pre_fire carries none of them; task.run.pre_claim has all but workspace.
    expect(fillCompozyBase({ job_id: 'j' }, fieldsOf('automation.job.pre_fire'), base)).toEqual({ job_id: 'j' });
    const claim = fillCompozyBase({}, fieldsOf('task.run.pre_claim'), base);
    expect(Object.keys(claim).sort()).toEqual(['event', 'session_id', 'timestamp']);
    const trigger = fillCompozyBase({}, fieldsOf('automation.trigger.pre_fire'), base);
    expect(trigger).toEqual({ event: 'E' });
  });

  it('leaves session_id out when there is none to give', () => {
    const { sessionId: _, ...noSession } = base;
    expect(fillCompozyBase({}, fieldsOf('prompt.post_assemble'), noSession)).not.toHaveProperty('session_id');
  });
});

describe('parsePayload', () => {
  it('reads one JSON object; empty or white space is {}', () => {
    expect(parsePayload(undefined)).toEqual({});
    expect(parsePayload(' \n')).toEqual({});
    expect(parsePayload('{"a":1}')).toEqual({ a: 1 });
  });

  it.each([['[1]'], ['"s"'], ['null'], ['3'], ['{'], ['{}{}'], ['nope'], ['\n\nfoo\nbar\n'], ['{"a":\u0000}']])(
    'refuses %j with exit 2 and a one-line message',
    (text) => {
      let error: unknown;
      try {
        parsePayload(text);
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ exit: 2, code: 'invalid_payload' });
      const message = (error as Error).message;
      for (const c of ['\r', '\n', '\u0000']) expect(message).not.toContain(c);
    },
  );

  it.each([
    ['a bad value', '{\n  "a": 1,\n  "b": oops\n}\n', ":3:8: invalid JSON: Unexpected token 'o'"],
    ['a bad literal', '{"a": tru}', ":1:10: invalid JSON: Unexpected token '}'"],
    ['a trailing comma', '{\n  "a": 1,\n}', ':3:1: invalid JSON: Expected double-quoted property name'],
    ['a second value', '{"a":1}\n{"b":2}', ':2:1: invalid JSON: Unexpected non-whitespace character after JSON'],
    ['an unterminated object', '{"a":1', ":1:7: invalid JSON: Expected ',' or '}' after property value"],
  ])('names the line and column of the bad token, not the end of the input: %s (issue 28)', (_, text, where) => {
    expect(() => parsePayload(text, 'payload.json')).toThrow(`payload.json${where}`);
    expect(() => parsePayload(text)).toThrow(`<stdin>${where}`);
  });

  it('does not echo the input in its error, long or short', () => {
    const long = '{\n  "token": "hunter2",\n  "b": oops\n}\n';
    expect(() => parsePayload(long)).toThrow(/^<stdin>:3:8: invalid JSON: Unexpected token 'o'$/);
  });

  it('does not echo the input in its error', () => {
    expect(() => parsePayload('{"token":"hunter2" oops}')).toThrow(/^<stdin>:1:\d+: invalid JSON: [^"]*$/);
  });

  it('refuses nesting deeper than MAX_PAYLOAD_NESTING, at any depth without overflowing', () => {
    const nested = (n: number) => '{"a":'.repeat(n - 1) + '{}' + '}'.repeat(n - 1);
    expect(() => parsePayload(nested(MAX_PAYLOAD_NESTING))).not.toThrow();
    for (const n of [MAX_PAYLOAD_NESTING + 1, 100_000]) {
      expect(() => parsePayload(nested(n))).toThrow(`payload is nested more than ${MAX_PAYLOAD_NESTING} levels deep`);
    }
    const arrays = '{"a":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
    expect(() => parsePayload(arrays)).toThrow(expect.objectContaining({ exit: 2 }));
  });
});

describe('assertSessionId', () => {
  it('accepts ids that name one folder', () => {
    for (const id of ['s1', 'sess_01J.ABC-x', 'a'.repeat(128)]) expect(assertSessionId(id)).toBe(id);
  });

  it.each([[''], ['.'], ['..'], ['a/b'], ['../x'], ['a b'], ['a'.repeat(129)], ['sé']])(
    'refuses %j with exit 2',
    (id) => {
      expect(() => assertSessionId(id)).toThrow(expect.objectContaining({ exit: 2, code: 'invalid_session' }));
    },
  );
});
