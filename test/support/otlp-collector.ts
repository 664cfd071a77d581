// A minimal OTLP/HTTP collector for tests, on 127.0.0.1: it accepts /v1/traces and /v1/logs,
// decodes protobuf bodies with the official OTLP .proto files (test/fixtures/otlp-proto) and JSON
// bodies as they are, and keeps what it received. `delayMs` makes it slow; `status` makes it refuse;
// `busyFirst: N` answers the first N requests 503 with `Retry-After: 0`.
// Beside it, collectors that never complete a request (a host that drops connection attempts, one
// that trickles its answer) and one that resets every connection.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import protobuf from 'protobufjs';

const PROTO_ROOT = fileURLToPath(new URL('../fixtures/otlp-proto/', import.meta.url));

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  contentType: string;
  /** The request as plain objects: ids as lowercase hex, times as decimal strings, enums as names. */
  body: Record<string, unknown>;
}

export interface DecodedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
  status: { code?: string | number; message?: string };
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  resource: Record<string, unknown>;
}

export interface DecodedLog {
  traceId: string;
  spanId: string;
  severityText: string;
  severityNumber: string | number;
  body: unknown;
  eventName?: string;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

export interface TestCollector {
  url: string;
  requests: ReceivedRequest[];
  spans(): DecodedSpan[];
  logs(): DecodedLog[];
  close(): Promise<void>;
}

let rootPromise: Promise<protobuf.Root> | undefined;
function protoRoot(): Promise<protobuf.Root> {
  rootPromise ??= (async () => {
    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) => join(PROTO_ROOT, target);
    await root.load(
      [
        'opentelemetry/proto/collector/trace/v1/trace_service.proto',
        'opentelemetry/proto/collector/logs/v1/logs_service.proto',
      ],
      { keepCase: false },
    );
    return root;
  })();
  return rootPromise;
}

const REQUEST_TYPE: Record<string, string> = {
  '/v1/traces': 'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
  '/v1/logs': 'opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest',
};

export async function startCollector(
  opts: { delayMs?: number; status?: number; busyFirst?: number } = {},
): Promise<TestCollector> {
  const root = await protoRoot();
  const requests: ReceivedRequest[] = [];
  let busy = opts.busyFirst ?? 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      const raw = Buffer.concat(chunks);
      const contentType = String(req.headers['content-type'] ?? '');
      const typeName = REQUEST_TYPE[path];
      let body: Record<string, unknown> = {};
      if (typeName !== undefined) {
        if (contentType.includes('json')) body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
        else {
          const type = root.lookupType(typeName);
          body = type.toObject(type.decode(raw), { longs: String, enums: String, bytes: String, defaults: false });
          hexIds(body);
        }
      }
      requests.push({ path, headers: req.headers, contentType, body });
      const answer = () => {
        if (res.destroyed) return;
        if (busy > 0) {
          busy--;
          res.statusCode = 503;
          res.setHeader('retry-after', '0');
        } else res.statusCode = opts.status ?? (typeName === undefined ? 404 : 200);
        res.setHeader('content-type', contentType.includes('json') ? 'application/json' : 'application/x-protobuf');
        res.end(contentType.includes('json') ? '{}' : '');
      };
      if (opts.delayMs) setTimeout(answer, opts.delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans: () => flattenSpans(requests),
    logs: () => flattenLogs(requests),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** protobufjs gives bytes as base64 (as OTLP/JSON would not: it uses hex); make ids hex. */
function hexIds(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(hexIds);
  if (value === null || typeof value !== 'object') return;
  const o = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(o)) {
    if ((k === 'traceId' || k === 'spanId' || k === 'parentSpanId') && typeof v === 'string') {
      o[k] = Buffer.from(v, 'base64').toString('hex');
    } else hexIds(v);
  }
}

/** OTLP AnyValue → plain value. */
function anyValue(v: Record<string, unknown> | undefined): unknown {
  if (v === undefined) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('arrayValue' in v) return ((v.arrayValue as { values?: Record<string, unknown>[] }).values ?? []).map(anyValue);
  return v;
}

function attributeMap(list: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of (list as { key: string; value: Record<string, unknown> }[] | undefined) ?? [])
    out[kv.key] = anyValue(kv.value);
  return out;
}

function flattenSpans(requests: ReceivedRequest[]): DecodedSpan[] {
  const out: DecodedSpan[] = [];
  for (const r of requests.filter((q) => q.path === '/v1/traces')) {
    for (const rs of (r.body.resourceSpans as Record<string, unknown>[] | undefined) ?? []) {
      const resource = attributeMap((rs.resource as { attributes?: unknown } | undefined)?.attributes);
      for (const ss of (rs.scopeSpans as Record<string, unknown>[] | undefined) ?? []) {
        for (const s of (ss.spans as Record<string, unknown>[] | undefined) ?? []) {
          out.push({
            traceId: String(s.traceId ?? ''),
            spanId: String(s.spanId ?? ''),
            parentSpanId: String(s.parentSpanId ?? ''),
            name: String(s.name),
            attributes: attributeMap(s.attributes),
            status: (s.status as DecodedSpan['status']) ?? {},
            startTimeUnixNano: String(s.startTimeUnixNano),
            endTimeUnixNano: String(s.endTimeUnixNano),
            resource,
          });
        }
      }
    }
  }
  return out;
}

function flattenLogs(requests: ReceivedRequest[]): DecodedLog[] {
  const out: DecodedLog[] = [];
  for (const r of requests.filter((q) => q.path === '/v1/logs')) {
    for (const rl of (r.body.resourceLogs as Record<string, unknown>[] | undefined) ?? []) {
      const resource = attributeMap((rl.resource as { attributes?: unknown } | undefined)?.attributes);
      for (const sl of (rl.scopeLogs as Record<string, unknown>[] | undefined) ?? []) {
        for (const l of (sl.logRecords as Record<string, unknown>[] | undefined) ?? []) {
          out.push({
            traceId: String(l.traceId ?? ''),
            spanId: String(l.spanId ?? ''),
            severityText: String(l.severityText ?? ''),
            severityNumber: l.severityNumber as string | number,
            body: anyValue(l.body as Record<string, unknown> | undefined),
            ...(l.eventName !== undefined ? { eventName: String(l.eventName) } : {}),
            attributes: attributeMap(l.attributes),
            resource,
          });
        }
      }
    }
  }
  return out;
}

/** A port on 127.0.0.1 that nothing listens on (a collector that is down). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createNetServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** A collector that never completes a request, and what it has seen. */
export interface StuckCollector {
  url: string;
  /** Connections that reached it (0 for a host whose connection attempts are dropped). */
  connections(): number;
  close(): Promise<void>;
}

// A worker that listens with a backlog of 1 and then blocks its own event loop, so nothing ever
// accepts: once the test has filled the accept queue, the kernel drops every further SYN.
const BLACKHOLE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const server = require('node:net').createServer();
server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
  parentPort.postMessage(server.address().port);
  Atomics.wait(new Int32Array(workerData), 0, 0);
  server.close();
});
`;

/**
 * A collector host that is down or firewalled: connection attempts get no answer at all, so a
 * client's connect() waits for the kernel to give up (about two minutes on Linux), as against a
 * host that drops packets. Made on 127.0.0.1 with a listening socket whose accept queue is full.
 */
export async function startBlackhole(): Promise<StuckCollector> {
  const flag = new SharedArrayBuffer(4);
  const worker = new Worker(BLACKHOLE_WORKER, { eval: true, workerData: flag });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  // Fill the accept queue: connect until an attempt is not answered within 500 ms.
  const fillers: Socket[] = [];
  for (let i = 0; i < 64; i++) {
    const s = connect(port, '127.0.0.1');
    s.on('error', () => {});
    fillers.push(s);
    const connected = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 500);
      s.once('connect', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!connected) break;
    if (i === 63) throw new Error('the accept queue never filled');
  }
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => 0,
    close: async () => {
      for (const s of fillers) s.destroy();
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      Atomics.store(new Int32Array(flag), 0, 1);
      Atomics.notify(new Int32Array(flag), 0);
      await exited;
    },
  };
}

/**
 * A collector that accepts, reads the request and then answers one byte every 50 ms, forever:
 * `headers` trickles the header block after the status line (the answer never starts), `body`
 * sends a whole `200 OK` header block and then trickles a body that never ends.
 */
export async function startTrickler(what: 'headers' | 'body'): Promise<StuckCollector> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let connections = 0;
  const server = createNetServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', () => {
      socket.write(
        what === 'headers'
          ? 'HTTP/1.1 200 OK\r\nx-trickle: '
          : 'HTTP/1.1 200 OK\r\ncontent-type: application/x-protobuf\r\ncontent-length: 10000000\r\n\r\n',
      );
      const timer = setInterval(() => {
        if (socket.destroyed) {
          clearInterval(timer);
          timers.delete(timer);
        } else socket.write('x');
      }, 50);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearInterval(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A collector that closes every connection as soon as it is made, and counts them. */
export async function startResetter(): Promise<StuckCollector> {
  let connections = 0;
  const server = createNetServer((socket) => {
    connections++;
    socket.on('error', () => {});
    socket.resetAndDestroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
