// http handlers (claude.md §5.5), run for real: POST the payload JSON, with the declared headers
// (env references expanded only for allowed names), no redirects followed, a bounded body and a
// deadline. The answer reader sees a 2xx as exit 0 with the body as stdout.
import type { IncomingMessage } from 'node:http';
import type { HandlerRun } from './answer.js';

export interface HttpCall {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export type HttpResult =
  | { kind: 'response'; status: number; body: string; truncated: boolean }
  | { kind: 'timed_out' }
  | { kind: 'failed'; message: string };

/** The body kept of a response, as a command's stdout (§5.2). */
export const HTTP_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * `$NAME` and `${NAME}` in a header value expand from the hook environment when NAME is allowed
 * (its allowedEnvVars, within httpHookAllowedEnvVars when that is set); otherwise they are empty.
 */
export function expandHeaderValue(value: string, env: Record<string, string>, allowed: ReadonlySet<string>): string {
  return value.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (_, braced?: string, bare?: string) => {
      const name = (braced ?? bare)!;
      return allowed.has(name) ? (env[name] ?? '') : '';
    },
  );
}

/** The names a hook may expand: its own list, capped by the settings' union when one is set. */
export function allowedHeaderVars(own: unknown, cap: readonly string[] | undefined): Set<string> {
  const names = Array.isArray(own) ? own.filter((n): n is string => typeof n === 'string') : [];
  return new Set(cap === undefined ? names : names.filter((n) => cap.includes(n)));
}

export async function postJson(call: HttpCall): Promise<HttpResult> {
  let target: URL;
  try {
    target = new URL(call.url);
  } catch {
    return { kind: 'failed', message: `http request failed: invalid URL ${JSON.stringify(call.url)}` };
  }
  const client = target.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise((settle) => {
    let done = false;
    const finish = (r: HttpResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      settle(r);
    };
    const body = Buffer.from(call.body);
    let req: ReturnType<typeof client.request>;
    try {
      req = client.request(target, {
        method: 'POST',
        headers: { ...call.headers, 'Content-Type': 'application/json', 'Content-Length': String(body.length) },
      });
    } catch (err) {
      // A header value with a line break, an unsupported protocol: refused before any request.
      settle({ kind: 'failed', message: `http request failed: ${(err as Error).message}` });
      return;
    }
    const timer = setTimeout(() => {
      finish({ kind: 'timed_out' });
      req.destroy();
    }, call.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish({ kind: 'failed', message: `http request failed: ${err.code ?? err.message}` }),
    );
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        const room = HTTP_BODY_LIMIT_BYTES - kept;
        if (chunk.length > room) truncated = true;
        if (room > 0) {
          const piece = chunk.length <= room ? chunk : chunk.subarray(0, room);
          chunks.push(piece);
          kept += piece.length;
        }
        if (truncated) {
          // Past the bound the answer is an error whatever follows: stop reading, free the socket.
          finish({ kind: 'response', status: res.statusCode ?? 0, body: '', truncated: true });
          res.destroy();
          req.destroy();
        }
      });
      res.on('end', () =>
        finish({
          kind: 'response',
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          truncated,
        }),
      );
      res.on('error', (err: NodeJS.ErrnoException) =>
        finish({ kind: 'failed', message: `http request failed: ${err.code ?? err.message}` }),
      );
    });
    req.end(body);
  });
}

/** What an http result means to the answer reader (§5.5). */
export function httpRun(result: HttpResult, timeoutS: number): HandlerRun {
  if (result.kind === 'timed_out') return { kind: 'timed_out', timeoutS };
  if (result.kind === 'failed') return { kind: 'failed', message: result.message };
  if (result.status < 200 || result.status > 299) return { kind: 'failed', message: `http status ${result.status}` };
  // A cut body is not the answer the server gave: parsing its first part could find a decision
  // the whole body does not hold (a non-blocking error, as a body that is not JSON).
  if (result.truncated)
    return {
      kind: 'failed',
      message: `http status ${result.status}: the body is larger than ${HTTP_BODY_LIMIT_BYTES} bytes`,
    };
  const text = result.body.trim();
  if (text === '') return { kind: 'exited', code: 0, stdout: '', stderr: '' };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return { kind: 'exited', code: 0, stdout: text, stderr: '' };
    }
  } catch {
    // not JSON: below
  }
  return { kind: 'failed', message: `http status ${result.status}: the body is not a JSON object` };
}
