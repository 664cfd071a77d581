// What every dialect's text-preserving edit does with its target file before and after the change:
// read it as text (through a link, to its real file; a missing file is empty), and refuse a file
// or a result that does not validate with one error listing every diagnostic where it is.
import { readFile, realpath } from 'node:fs/promises';
import type { Diagnostic } from '../declarations/diagnostics.js';
import { decodeSourceBytes } from '../declarations/source-file.js';
import { displayPath } from '../display-path.js';
import { ExitCode, HookctlError } from '../errors.js';
import { sha256 } from './atomic-write.js';

export interface TargetText {
  /** The file a write goes to: the link's target when the path is a symbolic link. */
  realFile: string;
  exists: boolean;
  /** The text as read, with its byte-order mark kept. */
  text: string;
  /** The bytes' hash, to see a write that came in between; null for a missing file. */
  hash: string | null;
}

export async function readEditTarget(file: string, opts: { json: boolean }): Promise<TargetText> {
  const realFile = await realpath(file).catch(() => file);
  let bytes: Buffer;
  try {
    bytes = await readFile(realFile);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { realFile, exists: false, text: '', hash: null };
    throw new HookctlError(
      'hook_config_unreadable',
      `cannot read ${displayPath(file)}: ${code ?? (err as Error).message}`,
      ExitCode.no,
    );
  }
  const decoded = decodeSourceBytes(bytes, file, undefined, { json: opts.json });
  if (decoded.kind !== 'text') throw validationFailed(decoded.kind === 'bad' ? [decoded.diagnostic] : []);
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? '\uFEFF' : '';
  return { realFile, exists: true, text: bom + decoded.text, hash: sha256(bytes) };
}

/** `file:line[:col]: message`, as an edit's error details and warnings name a diagnostic. */
export function describeDiagnostic(d: Diagnostic): string {
  return `${displayPath(d.file)}:${d.line}${d.column ? `:${d.column}` : ''}: ${d.message}`;
}

/** `hook declaration validation failed` (exit 1), with every error as a detail line. */
export function validationFailed(errors: Diagnostic[]): HookctlError {
  return new HookctlError('hook_validation_failed', 'hook declaration validation failed', ExitCode.no, {
    details: errors.map(describeDiagnostic),
    data: { diagnostics: errors },
  });
}
