// Neutralising control characters in human output (issue 24): a hook name, a command label, a
// ledger field, a folder name or a test case name comes from a project's files, and printed raw a
// terminal escape could hide text (a harmless label drawn over `curl … | sh`) or a line break could
// start a GitHub workflow command. Every such character is shown as a visible `\uXXXX` escape.
// Kept: line breaks where the caller says they are layout, and the colour codes hookctl's colour
// module writes (bold, dim, red, green, yellow, cyan and their resets), which can neither move the
// cursor nor hide text.

/* eslint-disable no-control-regex -- matching control characters is the point */
// C0 controls but \n, DEL, C1 controls, the bidirectional overrides and isolates, and the Unicode
// line and paragraph separators; ESC is matched with what follows when that is one of our codes.
const UNSAFE =
  /\u001b\[(?:1|2|22|31|32|33|36|39)m|[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_OR_NEWLINE =
  /\u001b\[(?:1|2|22|31|32|33|36|39)m|[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const ANY = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const visible = (c: string): string => (c.length > 1 ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * `text` with its control characters shown as `\uXXXX`. `\n` stays when `keepNewlines` (the
 * caller's own layout); a `\r` before it goes. hookctl's own colour codes stay.
 */
export function safeText(text: string, keepNewlines = true): string {
  if (keepNewlines && !ANY.test(text)) return text; // the common case: nothing to do
  const s = keepNewlines ? text.replace(/\r\n/g, '\n') : text;
  return s.replace(keepNewlines ? UNSAFE : UNSAFE_OR_NEWLINE, visible);
}
