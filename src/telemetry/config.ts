// Whether and where to export to OpenTelemetry (SPEC §9), read from the standard OTLP exporter
// variables. Plain code over an environment object: `fire` calls this on every run, so it must
// load nothing; the OpenTelemetry packages are loaded only once this says "export".
//
// Decisions (docs/OBSERVABILITY.md): a signal is exported only when its endpoint is known (its own
// `_TRACES_ENDPOINT`/`_LOGS_ENDPOINT`, or the base `OTEL_EXPORTER_OTLP_ENDPOINT` plus `/v1/traces`
// or `/v1/logs`), so setting only the traces endpoint exports spans and no logs; `OTEL_SDK_DISABLED=true`
// turns export off; `grpc` is not spoken (OTLP/HTTP only): one warning, and protobuf over HTTP.

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface OtlpSignalConfig {
  url: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
}

export interface OtlpExportConfig {
  traces?: OtlpSignalConfig;
  logs?: OtlpSignalConfig;
  /** `service.name` and the rest of the resource. */
  resource: Record<string, string>;
  /** Problems with the variables, for stderr; none stops the export of what is valid. */
  warnings: string[];
}

export interface ExportOptions {
  /** `runs --export otlp --endpoint URL`: a base endpoint, as OTEL_EXPORTER_OTLP_ENDPOINT; it wins over the variables. */
  endpoint?: string;
}

const SIGNALS = [
  ['traces', 'TRACES', 'v1/traces'],
  ['logs', 'LOGS', 'v1/logs'],
] as const;

/** The export to do, or undefined when no endpoint is set (the common case: nothing to load). */
export function otlpExportConfig(env: NodeJS.ProcessEnv, opts: ExportOptions = {}): OtlpExportConfig | undefined {
  const value = (name: string) => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const base = opts.endpoint ?? value('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (opts.endpoint === undefined) {
    if (value('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
    if (base === undefined && !SIGNALS.some(([, s]) => value(`OTEL_EXPORTER_OTLP_${s}_ENDPOINT`) !== undefined)) {
      return undefined;
    }
  }
  const warnings: string[] = [];
  const config: OtlpExportConfig = { resource: resourceFromEnv(env, warnings), warnings };
  const unsupported = new Map<string, string>(); // variable -> its value: one warning for them all
  for (const [key, upper, path] of SIGNALS) {
    const own = opts.endpoint === undefined ? value(`OTEL_EXPORTER_OTLP_${upper}_ENDPOINT`) : undefined;
    const url = own ?? (base !== undefined ? joinPath(base, path) : undefined);
    if (url === undefined) continue;
    if (!/^https?:\/\//i.test(url)) {
      warnings.push(`OpenTelemetry ${key} endpoint "${url}" is not an http(s) URL; ${key} are not exported`);
      continue;
    }
    config[key] = {
      url,
      protocol: protocolOf(
        value(`OTEL_EXPORTER_OTLP_${upper}_PROTOCOL`) !== undefined
          ? `OTEL_EXPORTER_OTLP_${upper}_PROTOCOL`
          : 'OTEL_EXPORTER_OTLP_PROTOCOL',
        value,
        unsupported,
      ),
      headers: {
        ...parseKeyValues(value('OTEL_EXPORTER_OTLP_HEADERS'), 'OTEL_EXPORTER_OTLP_HEADERS', warnings),
        ...parseKeyValues(
          value(`OTEL_EXPORTER_OTLP_${upper}_HEADERS`),
          `OTEL_EXPORTER_OTLP_${upper}_HEADERS`,
          warnings,
        ),
      },
    };
  }
  if (unsupported.size > 0) {
    const list = [...unsupported].map(([name, v]) => `${name} "${v}"`);
    warnings.push(
      `${list.join(', ')} ${list.length === 1 ? 'is' : 'are'} not supported (hookctl speaks OTLP/HTTP); using http/protobuf`,
    );
  }
  return config.traces === undefined && config.logs === undefined && warnings.length === 0 ? undefined : config;
}

/** The base endpoint plus the signal's path, as the OTLP exporter specification joins them. */
function joinPath(base: string, path: string): string {
  return base.endsWith('/') ? base + path : `${base}/${path}`;
}

/**
 * The protocol a signal's variable names. An unsupported one (`grpc`) is noted in `unsupported`,
 * once per variable, so that both signals reading OTEL_EXPORTER_OTLP_PROTOCOL give one warning.
 */
function protocolOf(
  name: string,
  value: (name: string) => string | undefined,
  unsupported: Map<string, string>,
): OtlpProtocol {
  const v = value(name);
  if (v === undefined || v === 'http/protobuf') return 'http/protobuf';
  if (v === 'http/json') return 'http/json';
  unsupported.set(name, v);
  return 'http/protobuf';
}

/** `service.name` from OTEL_SERVICE_NAME (default `hookctl`) over OTEL_RESOURCE_ATTRIBUTES. */
function resourceFromEnv(env: NodeJS.ProcessEnv, warnings: string[]): Record<string, string> {
  const attrs = parseKeyValues(env.OTEL_RESOURCE_ATTRIBUTES, 'OTEL_RESOURCE_ATTRIBUTES', warnings);
  const service = env.OTEL_SERVICE_NAME?.trim();
  if (service) attrs['service.name'] = service;
  else attrs['service.name'] ??= 'hookctl';
  return attrs;
}

/**
 * The W3C Baggage-like lists of the OTLP variables: `key1=value1,key2=value2`, values
 * percent-decoded, white space around items trimmed. A malformed item is left out with a warning
 * that names the variable and the key, never the value (headers carry credentials).
 */
export function parseKeyValues(text: string | undefined, variable: string, warnings: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (text === undefined) return out;
  for (const item of text.split(',')) {
    if (item.trim() === '') continue;
    const eq = item.indexOf('=');
    const key = eq === -1 ? item.trim() : item.slice(0, eq).trim();
    if (eq === -1 || key === '') {
      warnings.push(`${variable}: item "${key}" is not key=value; left out`);
      continue;
    }
    try {
      out[key] = decodeURIComponent(item.slice(eq + 1).trim());
    } catch {
      warnings.push(`${variable}: the value of "${key}" is not valid percent-encoding; left out`);
    }
  }
  return out;
}
