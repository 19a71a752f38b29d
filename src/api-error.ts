// ApiError: what every failed call of the client throws (HTTP error status, redirect, network failure, timeout, a
// response too large or not valid JSON). It carries what a caller needs to act or report, and never a credential.

/**
 * - `http`: the server answered an error status (4xx, 5xx).
 * - `redirect`: the server answered a redirect (3xx); it is not followed, so no credential reaches another host and a
 *   write is never reported as done. `redirectHost` names where it pointed.
 * - `network`: no response (connection refused or dropped, also in the middle of the body).
 * - `timeout`: the per-attempt timeout ended the call (headers or body too slow).
 * - `response_too_large`: the body went over `maxResponseBytes`; the transfer was aborted.
 * - `invalid_response`: the body is not the JSON the call expects (or a success other than 204/205 has none); `body`
 *   holds a redacted excerpt.
 */
export type ApiErrorKind = 'http' | 'redirect' | 'network' | 'timeout' | 'response_too_large' | 'invalid_response';

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
  requestIds?: Record<string, string> | undefined;
  detail?: string | undefined;
  /** How often the request was sent (retries and a 401 replay included); 1 when it was not sent again. */
  attempts?: number | undefined;
  /** What to do next, when the cause is known (a TLS or scheme mismatch, DNS, a refused connection, a timeout). */
  hint?: string | undefined;
  /** kind 'redirect': host (and port) of the Location, or undefined when the answer had none (or a browser hid it). */
  redirectHost?: string | undefined;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status: number;
  readonly operation: string;
  readonly url: string;
  /**
   * The response body, redacted: parsed when it was JSON, text otherwise (at most its first 64 KiB), undefined when
   * empty. For kind 'invalid_response', the first 200 characters of the text.
   */
  readonly body: unknown;
  /** Request id headers of the response (lower-case names), to quote when reporting the error. */
  readonly requestIds: Record<string, string>;
  /** kind 'redirect': host (and port) the server redirected to; only the host, as the rest of a URL may carry a credential. */
  readonly redirectHost: string | undefined;
  /** How often the request was sent: more than 1 when the client retried it (or replayed it after a 401). */
  readonly attempts: number;
  /**
   * What to do next, when the cause is known: a TLS or scheme mismatch, a host name that does not resolve, a refused
   * connection, a timeout (which option to raise). Also the last sentence of `message`.
   */
  readonly hint: string | undefined;

  constructor(init: ApiErrorInit) {
    super(describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.operation = init.operation;
    this.url = init.url;
    this.body = init.body;
    this.requestIds = init.requestIds ?? {};
    this.redirectHost = init.redirectHost;
    this.attempts = init.attempts ?? 1;
    this.hint = init.hint;
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
      attempts: this.attempts,
      ...(this.hint === undefined ? {} : { hint: this.hint }),
      ...(this.redirectHost === undefined ? {} : { redirectHost: this.redirectHost }),
      body: this.body,
    };
  }
}

const OUTCOMES: Record<ApiErrorKind, (init: ApiErrorInit) => string> = {
  http: (init) => `failed with status ${init.status}`,
  redirect: (init) =>
    `was redirected (status ${init.status}) to ${init.redirectHost ?? 'an undisclosed location'}: not followed (credentials stay with the configured origin)`,
  network: () => 'failed: no response (network error)',
  timeout: () => 'timed out',
  response_too_large: (init) => `failed: the response body (status ${init.status}) is over the size limit (maxResponseBytes)`,
  invalid_response: (init) => `failed: the response (status ${init.status}) is not valid JSON`,
};

/** `GET /vehicles failed with status 503 after 3 attempts: detail [url] (x-request-id 7f3c). Hint, when known.` */
function describe(init: ApiErrorInit): string {
  const what = OUTCOMES[init.kind](init);
  const retried = (init.attempts ?? 1) > 1 ? ` after ${init.attempts} attempts` : '';
  const ids = Object.entries(init.requestIds ?? {}).map(([name, value]) => `${name} ${value}`);
  const detail = init.detail ? `: ${init.detail}` : '';
  const hint = init.hint ? `. ${init.hint}` : '';
  return `${init.operation} ${what}${retried}${detail} [${init.url}]${ids.length ? ` (${ids.join(', ')})` : ''}${hint}`;
}

/**
 * The request id headers present on a response, redacted: a server may echo a credential in any header.
 * @internal
 */
export function requestIdsOf(headers: Headers, redactor: { redact(text: string): string }): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name);
    if (value) ids[name] = redactor.redact(value);
  }
  return ids;
}

/**
 * A URL safe to show: user info removed.
 * @internal
 */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch /* Stryker disable next-line BlockStatement: every URL shown was parsed before */ {
    // Stryker disable next-line StringLiteral: every URL shown was parsed before (a request's URL, about:blank)
    return '(invalid URL)';
  }
}

/**
 * A one-line summary of an error body, from the fields OAuth and gateway errors use.
 * @internal
 */
export function summarizeBody(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 200) || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const fields = body as Record<string, unknown>;
  const parts = [fields.error, fields.code, fields.error_description, fields.message].filter(
    (part): part is string => typeof part === 'string' && part.length > 0,
  );
  return parts.length ? [...new Set(parts)].join(' - ').slice(0, 300) : undefined;
}
