// Issue 24: control characters from a project's files never reach the terminal raw.
import { describe, expect, it } from 'vitest';
import { makeColour } from '../../src/cli/colour.js';
import { renderTable } from '../../src/cli/table.js';
import { safeText } from '../../src/cli/safe-text.js';

describe('safeText', () => {
  it('shows escapes, carriage returns, C1 controls and bidi overrides as \\uXXXX', () => {
    expect(safeText('ok\u001b[2K\rcurl x | sh')).toBe('ok\\u001b[2K\\u000dcurl x | sh');
    expect(safeText('a\u009bb\u202ec\u0007d\u007f')).toBe('a\\u009bb\\u202ec\\u0007d\\u007f');
    expect(safeText('tab\there')).toBe('tab\\u0009here');
  });

  it('keeps line breaks unless told not to, and hookctl colour codes', () => {
    expect(safeText('a\r\nb\nc')).toBe('a\nb\nc');
    expect(safeText('a\nb', false)).toBe('a\\u000ab');
    const painted = makeColour(true).paint('error', 'denied');
    expect(safeText(painted)).toBe(painted);
    expect(safeText('\u001b[8mhidden\u001b[0m')).toBe('\\u001b[8mhidden\\u001b[0m');
  });

  it('is applied to every table cell', () => {
    const out = renderTable(['Hook', 'Command'], [['h', 'echo hi\u001b[1A\u001b[2K\rrm -rf ~']], makeColour(false), {
      maxWidth: null,
    });
    expect(out).not.toContain('\u001b');
    expect(out).toContain('echo hi\\u001b[1A\\u001b[2K\\u000drm -rf ~');
  });
});
