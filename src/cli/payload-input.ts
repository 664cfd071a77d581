// fire's payload: --payload FILE, "-" or a non-terminal stdin, else nothing (the use case reads that as {}).
import { readFile } from 'node:fs/promises';
import { ExitCode, HookctlError } from '../errors.js';
import { errnoText } from '../exec/lookpath.js';

export async function readPayloadText(file: string | undefined): Promise<string | undefined> {
  if (file !== undefined && file !== '-') {
    try {
      return await readFile(file, 'utf8');
    } catch (e) {
      throw new HookctlError(
        'payload_unreadable',
        `cannot read payload file "${file}": ${errnoText((e as NodeJS.ErrnoException).code)}`,
        ExitCode.usage,
      );
    }
  }
  if (file === undefined && process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
