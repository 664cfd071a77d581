// One record shape for every dialect (SPEC §5, issue 28): makeRunRecord writes every field, in
// §5's order, null where there is no value, the dialect's own fields after them, recorded_at last.
import { describe, expect, it } from 'vitest';
import { declaredIn, errorField, makeRunRecord, processFields } from '../../src/ledger/record-fields.js';
import { RUN_RECORD_FIELDS, type RunRecordFields } from '../../src/ledger/record.js';

const fields: RunRecordFields = {
  dispatch_id: 'd_1',
  session_id: 's_1',
  dialect: 'somedialect',
  event: 'E',
  hook_name: 'h',
  source: 'src',
  skill_source: null,
  mode: 'sync',
  priority: null,
  required: false,
  outcome: 'applied',
  decision: null,
  reason: null,
  duration_ms: 3,
  dispatch_depth: 1,
  ...processFields(undefined),
  patch_applied: null,
  error: errorField('  '),
  workspace: '/ws',
  declared_in: declaredIn({ file: '/ws/hooks.json' }),
};

describe('makeRunRecord', () => {
  it('writes every SPEC §5 field in order, the extras after them and recorded_at last', () => {
    const r = makeRunRecord(fields, { handler_type: 'command', workspace: 'ignored: a §5 field wins' });
    expect(Object.keys(r)).toEqual([...RUN_RECORD_FIELDS.slice(0, -1), 'handler_type', 'recorded_at']);
    expect(r.run_id).toMatch(/^run_[0-9a-z]{25}$/);
    expect(r.recorded_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(r).toMatchObject({ exit_code: null, timed_out: null, error: null, workspace: '/ws' });
    expect(r.declared_in).toBe('/ws/hooks.json');
  });

  it('writes null, never leaves a field out, even when a caller bypasses the type', () => {
    const partial = { ...fields } as Partial<RunRecordFields>;
    delete partial.skill_source;
    delete partial.error;
    const r = makeRunRecord(partial as RunRecordFields) as unknown as Record<string, unknown>;
    expect(r.skill_source).toBeNull();
    expect(r.error).toBeNull();
    expect(Object.keys(r)).toEqual([...RUN_RECORD_FIELDS]);
  });

  it('keeps errors to one trimmed line, and a declaration without a file declares in null', () => {
    expect(errorField(' a\n  b \n')).toBe('a b');
    expect(errorField(undefined)).toBeNull();
    expect(declaredIn({ file: '' })).toBeNull();
    expect(declaredIn(undefined)).toBeNull();
  });
});
