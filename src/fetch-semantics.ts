// What Node's fetch does around an exchange, for the two places that send with undici's request API instead of fetch:
// the client over its own connections (direct-fetch.ts) and the contract suite's transport. The headers fetch adds to
// a request that has none of its own, the content codings it undoes, the Response it hands back (whatever the status,
// with its URL) and what it rejects with. How a body is decoded (as it streams, or at once) is each one's own.
import * as zlib from 'node:zlib';

/** What fetch adds to a request that does not say (measured on Node 20's fetch), besides Accept-Encoding. */
const FETCH_DEFAULTS: readonly (readonly [string, string])[] = [
  ['accept', '*/*'],
  ['accept-language', '*'],
  ['sec-fetch-mode', 'cors'],
  ['user-agent', 'node'],
];

/**
 * The headers fetch adds to a request for `url` that has none of these names (`has` tells which it has).
 * @internal
 */
export function fetchDefaultHeaders(url: string, has: (name: string) => boolean): [string, string][] {
  const added = FETCH_DEFAULTS.filter(([name]) => !has(name)) as [string, string][];
  if (!has('accept-encoding')) added.push(['accept-encoding', url.startsWith('https:') ? 'br, gzip, deflate' : 'gzip, deflate']);
  return added;
}

/**
 * Statuses whose answer has no body (RFC 9110), as a Response must be made for them.
 * @internal
 */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** The most codings fetch decodes (undici's guard against a resource exhaustion): past it, the answer fails. */
const MAX_CODINGS = 5;

/**
 * Decoding leniently, as fetch (and curl) do: a body cut short still gives what it holds.
 * @internal
 */
export const LENIENT: zlib.ZlibOptions = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
/** @internal */
export const LENIENT_BROTLI: zlib.BrotliOptions = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
};

/**
 * Whether deflated bytes starting with `first` are zlib-wrapped (else raw deflate), told by the first byte as undici's
 * fetch tells them.
 * @internal
 */
export const isZlibWrapped = (first: number): boolean => (first & 0x0f) === 0x08;

/**
 * The content codings of an answer in the order fetch undoes them (the last applied first), each one `decoders` holds;
 * none when one of them is not known (fetch then leaves the body as it came). Throws past fetch's limit.
 * @internal
 */
export function codingsToUndo(contentEncoding: string | null, decoders: Readonly<Record<string, unknown>>): string[] {
  if (!contentEncoding) return [];
  const codings = contentEncoding.toLowerCase().split(',');
  if (codings.length > MAX_CODINGS)
    throw new RangeError(`too many content-encodings in response: ${codings.length}, maximum allowed is ${MAX_CODINGS}`);
  const undo = codings.reverse().map((coding) => coding.trim());
  return undo.every((coding) => Object.hasOwn(decoders, coding)) ? undo : [];
}

/**
 * The headers of an answer as undici's request API gives them (a header sent more than once as an array).
 * @internal
 */
export function headersOf(given: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const name in given) {
    const value = given[name];
    // undici gives a string for every header it names, or an array for one sent more than once.
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else headers.append(name, value as string);
  }
  return headers;
}

/**
 * The Response fetch would give for an answer to `url`. A Response is made with a status from 200 to 599 only, and a
 * reason phrase without control characters; fetch hands on whatever the server said (RFC 9110 calls a status above
 * 599 invalid, and it is judged as such).
 * @internal
 */
export function fetchResponse(body: BodyInit | null, status: number, statusText: string, headers: Headers, url: string): Response {
  // undici's request API gives no status below 200 (an interim answer is not the answer).
  const response = new Response(body, { status: Math.min(status, 599), headers });
  return Object.defineProperties(response, { url: { value: url }, status: { value: status }, statusText: { value: statusText } });
}

/**
 * What fetch rejects with: the signal's reason once it aborted, else a TypeError whose cause is the failure ("fetch
 * failed" before the answer, "terminated" while its body arrives).
 * @internal
 */
export function asFetchError(
  error: unknown,
  signal: { readonly aborted: boolean; readonly reason: unknown } | undefined,
  message: 'fetch failed' | 'terminated',
): unknown {
  return signal?.aborted ? signal.reason : new TypeError(message, { cause: error });
}
