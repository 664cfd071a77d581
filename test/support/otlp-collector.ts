// A minimal OTLP/HTTP collector for tests, on 127.0.0.1: it accepts /v1/traces and /v1/logs,
// decodes protobuf bodies with the official OTLP .proto files (test/fixtures/otlp-proto) and JSON
// bodies as they are, and keeps what it received. `delayMs` makes it slow; `status` makes it refuse.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

export async function startCollector(opts: { delayMs?: number; status?: number } = {}): Promise<TestCollector> {
  const root = await protoRoot();
  const requests: ReceivedRequest[] = [];
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
        res.statusCode = opts.status ?? (typeName === undefined ? 404 : 200);
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
