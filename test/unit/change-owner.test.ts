// Which dialect runs a change (src/app/change-owner.ts), and the misspelt event of a create
// without a NAME (issue 22): named as such, not answered with "needs a NAME".
import { describe, expect, it } from 'vitest';
import { changeOwner } from '../../src/app/change-owner.js';

describe('changeOwner', () => {
  it('a create without a NAME whose event no dialect knows is unknown_event with the closest', () => {
    expect(() => changeOwner({ action: 'create', event: 'PreToolUSe' })).toThrow(
      'unknown event "PreToolUSe"; did you mean "PreToolUse"?',
    );
    try {
      changeOwner({ action: 'create', event: 'PreToolUSe' });
    } catch (err) {
      expect(err).toMatchObject({ code: 'unknown_event', exit: 2 });
    }
  });

  it('a known event picks its dialect; a NAME or --dialect leaves the event to the dialect', () => {
    expect(changeOwner({ action: 'create', event: 'PreToolUse' })?.name).toBe('claude');
    expect(changeOwner({ action: 'create', event: 'tool.pre_call' })).toBeUndefined();
    expect(changeOwner({ action: 'create', name: 'x', event: 'tool.pre_cal' })).toBeUndefined();
    expect(changeOwner({ action: 'create', event: 'PreToolUSe', dialect: 'claude' })?.name).toBe('claude');
  });
});
