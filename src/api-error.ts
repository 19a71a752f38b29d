// ApiError: what every failed call of the client throws (HTTP error status, network failure or timeout).
// It carries what a caller needs to act or report, and never a credential.

export type ApiErrorKind = 'http' | 'network' | 'timeout';

const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-correlation-id', 'x-ms-request-id', 'apim-request-id', 'traceparent'];

export interface ApiErrorInit {
  kind: ApiErrorKind;
  /** HTTP status; 0 when no response arrived. */
  status: number;
  /** `METHOD /schema/path`, e.g. `GET /vehicles/{vehicleNumber}`. */
  operation: string;
  /** Request URL without user info; query values are kept (they are filters, not credentials). */
  url: string;
  body?: unknown;
  requestIds?: Record<string, string>;
  detail?: string;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status: number;
  readonly operation: string;
  readonly url: string;
  /** The response body: parsed when it was JSON, text otherwise, undefined when empty. */
  readonly body: unknown;
  /** Request id headers of the response (lower-case names), to quote when reporting the error. */
  readonly requestIds: Record<string, string>;

  constructor(init: ApiErrorInit) {
    super(describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.operation = init.operation;
    this.url = init.url;
    this.body = init.body;
    this.requestIds = init.requestIds ?? {};
  }

  override toString(): string {
    return `${this.name}: ${this.message}`;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      kind: this.kind,
      status: this.status,
      operation: this.operation,
      url: this.url,
      requestIds: this.requestIds,
      body: this.body,
    };
  }
}

function describe(init: ApiErrorInit): string {
  const what = init.kind === 'http' ? `failed with status ${init.status}` : init.kind === 'timeout' ? 'timed out' : 'failed: no response (network error)';
  const ids = Object.entries(init.requestIds ?? {}).map(([name, value]) => `${name} ${value}`);
  const detail = init.detail ? `: ${init.detail}` : '';
  return `${init.operation} ${what}${detail} [${init.url}]${ids.length ? ` (${ids.join(', ')})` : ''}`;
}

/** The request id headers present on a response. */
export function requestIdsOf(headers: Headers): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name);
    if (value) ids[name] = value;
  }
  return ids;
}

/** A URL safe to show: user info removed. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(invalid URL)';
  }
}

/** A one-line summary of an error body, from the fields OAuth and gateway errors use. */
export function summarizeBody(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 200) || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const fields = body as Record<string, unknown>;
  const parts = [fields.error, fields.code, fields.error_description, fields.message].filter(
    (part): part is string => typeof part === 'string' && part.length > 0,
  );
  return parts.length ? [...new Set(parts)].join(' - ').slice(0, 300) : undefined;
}
