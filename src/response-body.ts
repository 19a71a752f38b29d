// What the client accepts as a response body: at most maxResponseBytes (decoded), and JSON where JSON is expected.
// A body over the limit fails with the error the caller gives (an ApiError of kind 'response_too_large'); a body that is
// not JSON raises InvalidJson, which carries the text, and describeFailure (which knows the operation and the
// credentials to redact) turns it into an ApiError of kind 'invalid_response'.
import { settleTimeout, transferTimeout } from './timeout-fetch.js';

/** 32 MiB: far above any answer of these APIs, far below what would hurt a process. */
const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * Validates the maxResponseBytes option: a whole number of bytes, 0 for no limit.
 * @internal
 */
export function resolveMaxResponseBytes(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_RESPONSE_BYTES;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new TypeError('option "maxResponseBytes" must be a whole number of bytes (0: no limit)');
  }
  return value;
}

/**
 * The body is not JSON. Holds the whole text (unredacted, so not in the message): the ApiError shows a redacted excerpt.
 * @internal
 */
export class InvalidJson extends Error {
  // Stryker disable next-line StringLiteral: InvalidJson never reaches a caller: describeFailure turns it into an ApiError
  override readonly name = 'InvalidJson';
  readonly #text: string;
  constructor(
    readonly status: number,
    text: string,
  ) {
    // Stryker disable next-line StringLiteral: InvalidJson never reaches a caller: describeFailure turns it into an ApiError
    super('response body is not valid JSON');
    this.#text = text;
  }

  get text(): string {
    return this.#text;
  }
}

const DIGITS = /^\d+$/;
// Statuses whose responses never have a body (a Response with one cannot even be built).
// Stryker disable next-line ArrayDeclaration: a Response with such a status has no body, which the check before it catches
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
// Successes that carry no body by definition.
const NO_CONTENT_STATUSES = new Set([204, 205]);

/**
 * `response`, or a copy whose body fails with `tooLarge()` past `maxBytes` (0: no limit), the download cancelled.
 * A body whose Content-Length is within the limit is returned as it is: fetch reads no more than that, so the common
 * case costs nothing. A compressed body is counted after decoding (a small gzip body can inflate without bound).
 * @internal
 */
export function limitResponse(response: Response, maxBytes: number, tooLarge: () => Error): Response {
  if (maxBytes === 0 || response.body === null || NULL_BODY_STATUSES.has(response.status)) return response;
  const headers = response.headers;
  const encoding = headers.get('content-encoding');
  // A decoded body can be any size, whatever its Content-Length says.
  const length = encoding === null || encoding === 'identity' ? headers.get('content-length') : null;
  const declared = length !== null && DIGITS.test(length) ? Number(length) : undefined;
  // Stryker disable next-line EqualityOperator: a body of exactly the limit passes the counting stream whole too
  if (declared !== undefined && declared <= maxBytes) return response;
  const body = declared !== undefined ? refused(response, tooLarge) : counted(response, maxBytes, tooLarge);
  const limited = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  // A Response built here has no URL; callers (and the token provider's errors) read it.
  Object.defineProperty(limited, 'url', { value: response.url });
  // The copy is what the caller reads: the attempt's timeout now ends when its body has been read.
  transferTimeout(response, limited);
  return limited;
}

/** A body announced too large: cancelled before it arrives. */
function refused(response: Response, tooLarge: () => Error): ReadableStream<Uint8Array> {
  response.body!.cancel().catch(() => undefined);
  return new ReadableStream({ start: (controller) => controller.error(tooLarge()) });
}

/** The body, passed through while it stays within the limit; past it, the download is cancelled. */
function counted(response: Response, maxBytes: number, tooLarge: () => Error): ReadableStream<Uint8Array> {
  const reader = response.body!.getReader();
  let received = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // A read that fails (timeout, dropped connection) fails the stream with the same error.
        const { done, value } = await reader.read();
        if (done) return controller.close();
        received += value.byteLength;
        if (received > maxBytes) {
          controller.error(tooLarge());
          reader.cancel().catch(() => undefined);
          return;
        }
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    // Nothing is read ahead of the consumer.
    // Stryker disable next-line ObjectLiteral: reading one chunk ahead changes no result, only when bytes leave the socket
    { highWaterMark: 0 },
  );
}

/**
 * The result of an openapi-fetch call made with parseAs 'stream' in place of 'json', with its data parsed here. A body
 * that is not JSON is InvalidJson rather than a bare SyntaxError; so is an empty one, except for 204 and 205 (no
 * content by definition): every success the specs document has a body, and the result's type says it is there.
 * @internal
 */
export function parseJsonResult(result: { data?: unknown; response: Response }): unknown {
  const response = result.response;
  // No body (204, HEAD, Content-Length 0): openapi-fetch left data undefined.
  if (result.data === undefined || result.data === null) {
    settleTimeout(response);
    if (NO_CONTENT_STATUSES.has(response.status)) return result;
    throw new InvalidJson(response.status, '');
  }
  // Not async, and the result object is reused: this runs on every call.
  return response.text().then(
    (text) => {
      settleTimeout(response);
      try {
        result.data = JSON.parse(text) as unknown;
      } catch {
        throw new InvalidJson(response.status, text);
      }
      return result;
    },
    (error: unknown) => {
      settleTimeout(response);
      throw error;
    },
  );
}
