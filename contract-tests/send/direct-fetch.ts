// One attempt of a request as Node's fetch sends it with `redirect: 'manual'`, on undici's dispatch API instead: the same
// request on the wire (fetch's default headers where the request has none of its own) and the same Response back (the
// body decoded as fetch decodes it, the URL kept), without fetch's web streams, abort signals and copies of the
// request. A far live run sends some thousands of requests on a machine that also judges every answer; fetch's own
// work per request was about a tenth of the suite's CPU. The transport uses it for its requests (send/transport.ts);
// anything else (another redirect mode, an injected fetch) still goes through fetch.
import * as zlib from 'node:zlib';
import type { Dispatcher } from 'undici';
// What fetch adds, decodes and rejects with: the client's rules, shared.
import * as fetchLike from '../../src/fetch-semantics.ts';

/** The decoded bytes each Response of this module was made from: the one fetch reads its text from them, not from a
 * clone of the Response (a clone tees its body into two web streams, which cost a live run more than its parsing). */
const bodies = new WeakMap<Response, Uint8Array>();

/** A request's body as bytes, read from a copy of the request (undefined: it has none): what is sent when the body was
 * not given apart as bytes (send/fetch.ts outgoing). */
export const bodyBytes = async (request: Request): Promise<Uint8Array | undefined> =>
  request.body ? new Uint8Array(await request.clone().arrayBuffer()) : undefined;

/** The bytes of a body as `response.text()` would read them, when `directFetch` made it (undefined otherwise: read the body). */
export const bufferedBody = (response: Response): Uint8Array | undefined => bodies.get(response);

const zstd = (zlib as { zstdDecompressSync?: (bytes: Buffer) => Buffer }).zstdDecompressSync;
const DECODERS: Record<string, ((bytes: Buffer) => Buffer) | undefined> = {
  gzip: (bytes) => zlib.gunzipSync(bytes, fetchLike.LENIENT),
  'x-gzip': (bytes) => zlib.gunzipSync(bytes, fetchLike.LENIENT),
  // zlib-wrapped or raw, told by the first byte, as undici's fetch tells them.
  deflate: (bytes) =>
    bytes.length && !fetchLike.isZlibWrapped(bytes[0]!)
      ? zlib.inflateRawSync(bytes, fetchLike.LENIENT)
      : zlib.inflateSync(bytes, fetchLike.LENIENT),
  br: (bytes) => zlib.brotliDecompressSync(bytes, fetchLike.LENIENT_BROTLI),
  // Where this Node has it (22.15, 23.8 and later), as its fetch does.
  ...(zstd ? { zstd: (bytes: Buffer) => zstd(bytes) } : {}),
};

/** Decodes a body by its Content-Encoding as fetch does (see codingsToUndo in src/fetch-semantics.ts). */
function decoded(body: Buffer, contentEncoding: string | null): Buffer {
  return fetchLike.codingsToUndo(contentEncoding, DECODERS).reduce((bytes, coding) => DECODERS[coding]!(bytes), body);
}

/** What an attempt reads of its signal: whether and why it aborted, and its listeners (an AbortSignal has them too). */
export interface AbortLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** An attempt's deadline: what AbortSignal.any([outer, AbortSignal.timeout(ms)]) gives, from one timer, which `done()`
 * clears once the whole answer is in (the two signals of fetch's way cost some 2% of a live run). */
export interface Deadline {
  signal: AbortLike;
  /** The time ran out (not `outer`). */
  timedOut(): boolean;
  done(): void;
}

/** The signal of one attempt, which only `dispatched` listens to: an AbortController is an EventTarget, whose
 * making and listeners cost a live run's attempts more than their timers. */
class AttemptSignal implements AbortLike {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] = [];

  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners.indexOf(listener);
    if (at >= 0) this.listeners.splice(at, 1);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    for (const listener of this.listeners.splice(0)) listener();
  }
}

export function deadline(ms: number, outer: AbortSignal): Deadline {
  const signal = new AttemptSignal();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    signal.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, ms);
  const onAbort = () => signal.abort(outer.reason);
  if (outer.aborted) onAbort();
  else outer.addEventListener('abort', onAbort, { once: true });
  return {
    signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      outer.removeEventListener('abort', onAbort);
    },
  };
}

/** The answer as it came: what directFetch makes a Response of. */
interface Answer {
  status: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/**
 * Sends one request on `dispatcher` and collects its whole answer, through undici's dispatch API (the one its request()
 * is made on): no body stream, no async resource per request. An answer's headers come as request() gives them; an
 * interim answer (1xx) is not the answer. Rejects with undici's error, or the signal's reason once it aborted.
 */
function dispatched(
  url: URL,
  method: string,
  headers: string[],
  body: Uint8Array | undefined,
  signal: AbortLike,
  dispatcher: Dispatcher,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    const onAbort = () => controller?.abort(signal.reason as Error);
    const settle = (settled: () => void) => {
      signal.removeEventListener('abort', onAbort);
      settled();
    };
    let answer: Omit<Answer, 'bytes'> | undefined;
    const chunks: Buffer[] = [];
    signal.addEventListener('abort', onAbort);
    try {
      dispatcher.dispatch(
        { origin: url.origin, path: `${url.pathname}${url.search}`, method: method as Dispatcher.HttpMethod, headers, body: body ?? null },
        {
          onRequestStart(started) {
            controller = started;
            if (signal.aborted) started.abort(signal.reason as Error);
          },
          onResponseStart(_controller, status, answerHeaders, statusText = '') {
            if (status >= 200) answer = { status, statusText, headers: answerHeaders };
          },
          onResponseData(_controller, chunk) {
            chunks.push(chunk);
          },
          onResponseEnd() {
            settle(() =>
              answer ? resolve({ ...answer, bytes: Buffer.concat(chunks) }) : reject(new Error('the answer ended without a final status')),
            );
          },
          onResponseError(_controller, error) {
            settle(() => reject(error));
          },
        },
      );
    } catch (error) {
      settle(() => reject(error));
    }
  });
}

/**
 * Sends `request` (whose body is `body`, read once by the caller for every attempt) and reads the whole answer.
 * Rejects as fetch does: with the signal's reason once it aborted, else a TypeError "fetch failed" whose cause is
 * undici's error (what the transport reads to tell a closed connection, a refused one or a TLS failure).
 * `bodyStream` false: the caller reads the body's bytes with `bufferedBody` only, and the Response has no body of its
 * own (a body's web stream costs a Response some 0.1 ms in a live run, and the suite's checks read the text).
 */
export async function directFetch(
  request: Request,
  body: Uint8Array | undefined,
  signal: AbortLike,
  dispatcher: object,
  bodyStream = true,
): Promise<Response> {
  const headers: string[] = [];
  for (const [name, value] of request.headers) headers.push(name, value);
  for (const [name, value] of fetchLike.fetchDefaultHeaders(request.url, (name) => request.headers.has(name))) headers.push(name, value);
  let answer: Answer;
  try {
    // src/connections.ts's Agent or EnvHttpProxyAgent, typed there by shape.
    answer = await dispatched(new URL(request.url), request.method, headers, body, signal, dispatcher as Dispatcher);
  } catch (error) {
    throw fetchLike.asFetchError(error, signal, 'fetch failed');
  }
  const { status, statusText, bytes } = answer;
  const answerHeaders = fetchLike.headersOf(answer.headers);
  const bodiless = fetchLike.NULL_BODY_STATUSES.has(status) || request.method === 'HEAD';
  let content: BodyInit | null = null;
  let buffered: Uint8Array<ArrayBuffer> | undefined = bodiless ? new Uint8Array(0) : undefined;
  if (!bodiless) {
    try {
      buffered = new Uint8Array(decoded(bytes, answerHeaders.get('content-encoding')));
      content = buffered;
    } catch (error) {
      // As fetch has it: the answer is there, and reading its body fails.
      content = new ReadableStream({ start: (controller) => controller.error(new TypeError('terminated', { cause: error })) });
    }
  }
  const response = fetchLike.fetchResponse(bodyStream || !buffered ? content : null, status, statusText, answerHeaders, request.url);
  if (buffered) bodies.set(response, buffered);
  return response;
}
