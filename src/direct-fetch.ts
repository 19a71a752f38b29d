// The fetch of the client's own connections: undici's request API over the client's own undici 7 dispatcher, its
// answer handed back as a WHATWG Response. Node's fetch spends most of a call on the Fetch standard's machinery (a
// Request with its own header list and signal, stream plumbing both ways), which a client that already chose its
// connections, never follows a redirect and sends a string body does not need: undici's request API sends the same
// request over the same connections for a fraction of the cost (`npm run bench:client` prints both).
// What a server sees and what the caller gets are fetch's: the headers fetch adds when absent, a body decoded as
// fetch decodes it, fetch's TypeError ("fetch failed", "terminated") around a network failure, the signal's reason
// for an abort. Anything else, a Request, a body that is not a string, a redirect to follow, or a fetch replaced since
// this module loaded (a test tool such as MSW patches globalThis.fetch), goes to globalThis.fetch as it is.
import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import * as zlib from 'node:zlib';
import { request } from 'undici';
import type { Dispatcher } from './connections.js';
import {
  asFetchError,
  codingsToUndo,
  fetchDefaultHeaders,
  fetchResponse,
  headersOf,
  isZlibWrapped,
  LENIENT,
  LENIENT_BROTLI,
  NULL_BODY_STATUSES,
} from './fetch-semantics.js';

/** The fetch Node installed, as this module found it. */
const NODE_FETCH = globalThis.fetch;

/** fetch's init with undici's `dispatcher` option, which the DOM's RequestInit does not know. */
type SendInit = RequestInit & { dispatcher?: Dispatcher };

type Answer = Awaited<ReturnType<typeof request>>;

/**
 * A fetch that sends a request with a string body (or none), a dispatcher and `redirect: 'manual'` (the transport's)
 * straight over that dispatcher, and anything else with globalThis.fetch.
 * @internal
 */
export function directFetch(input: Request | string, init?: SendInit): Promise<Response> {
  const body = init?.body;
  const plain =
    typeof input === 'string' &&
    init?.dispatcher !== undefined &&
    init.redirect === 'manual' &&
    (body === undefined || body === null || typeof body === 'string');
  if (!plain || globalThis.fetch !== NODE_FETCH) return globalThis.fetch(input, init);
  return send(input, init, body ?? null);
}

async function send(url: string, init: SendInit, body: string | null): Promise<Response> {
  const signal = init.signal ?? undefined;
  // Stryker disable next-line StringLiteral: undici's request API sends an empty method as GET too
  const method = init.method ?? 'GET';
  let answer: Answer;
  try {
    answer = await request(url, {
      method: method as 'GET',
      headers: requestHeaders(url, init.headers, body),
      body,
      signal,
      dispatcher: init.dispatcher as never,
    });
  } catch (error) {
    throw asFetchError(error, signal, 'fetch failed');
  }
  return responseOf(url, method, answer, signal);
}

/** The headers as given, with those Node's fetch adds when they are absent, so that a server sees what fetch sends. */
function requestHeaders(url: string, given: HeadersInit | undefined, body: string | null): Record<string, string> {
  // Without a prototype: a header may be named anything a token allows, __proto__ too.
  const headers: Record<string, string> = Object.create(null);
  (given instanceof Headers ? given : new Headers(given)).forEach((value, name) => {
    headers[name] = value;
  });
  if (body !== null) headers['content-type'] ??= 'text/plain;charset=UTF-8';
  for (const [name, value] of fetchDefaultHeaders(url, (name) => name in headers)) headers[name] = value;
  return headers;
}

function responseOf(url: string, method: string, answer: Answer, signal: AbortSignal | undefined): Response {
  const { statusCode: status, statusText, body } = answer;
  const headers = headersOf(answer.headers);
  if (method === 'HEAD' || NULL_BODY_STATUSES.has(status)) {
    body.resume();
    return fetchResponse(null, status, statusText, headers, url);
  }
  let decoded: Readable;
  try {
    decoded = decode(body, headers.get('content-encoding'));
  } catch (error) {
    // More content codings than fetch decodes.
    body.on('error', () => undefined).destroy();
    throw new TypeError('fetch failed', { cause: error });
  }
  return fetchResponse(chunks(decoded, signal) as unknown as BodyInit, status, statusText, headers, url);
}

/** A decoder for each content coding fetch undoes, undoing it as the body streams. */
const DECODERS: Record<string, (() => Transform) | undefined> = {
  gzip: () => zlib.createGunzip(LENIENT),
  'x-gzip': () => zlib.createGunzip(LENIENT),
  deflate: () => new Inflate(),
  br: () => zlib.createBrotliDecompress(LENIENT_BROTLI),
  // Where this Node has it (22.15, 23.8 and later), as its fetch does.
  // Stryker disable all: Node 20, where the mutants run, has no zstd
  ...('createZstdDecompress' in zlib
    ? { zstd: () => (zlib as unknown as { createZstdDecompress: () => Transform }).createZstdDecompress() }
    : {}),
  // Stryker restore all
};

/** Deflated bytes, zlib-wrapped or raw, told by the first byte as fetch tells them. */
class Inflate extends Transform {
  #inflate: Transform | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.#inflate) {
      // Stryker disable next-line ConditionalExpression,BlockStatement: as undici's fetch has it; a socket gives no empty chunk
      if (chunk.length === 0) {
        callback();
        return;
      }
      this.#inflate = isZlibWrapped(chunk[0]!) ? zlib.createInflate(LENIENT) : zlib.createInflateRaw(LENIENT);
      this.#inflate.on('data', (data: Buffer) => this.push(data));
      this.#inflate.on('error', (error: Error) => this.destroy(error));
    }
    this.#inflate.write(chunk, callback);
  }

  override _flush(callback: TransformCallback): void {
    if (!this.#inflate) {
      callback();
      return;
    }
    this.#inflate.once('end', () => callback());
    this.#inflate.end();
  }
}

/** The body decoded as fetch decodes it, as it streams. */
function decode(body: Readable, contentEncoding: string | null): Readable {
  const codings = codingsToUndo(contentEncoding, DECODERS);
  if (!codings.length) return body;
  // A failure anywhere (or the reader giving up) destroys every stage with it, the download included.
  return pipeline([body, ...codings.map((coding) => DECODERS[coding]!())], () => undefined) as unknown as Readable;
}

/**
 * The body's chunks; a failure while they arrive is fetch's (the signal's reason, or a TypeError "terminated"), and a
 * reader that gives up, even before the first chunk, ends the download.
 */
function chunks(body: Readable, signal: AbortSignal | undefined): AsyncIterable<Uint8Array> {
  const source = body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  const failed = (error: unknown) => {
    throw asFetchError(error, signal, 'terminated');
  };
  const iterator: AsyncIterator<Uint8Array> = {
    next: () => source.next().catch(failed),
    return: () => {
      // What the download fails with now is nobody's concern: the reader has gone.
      body.on('error', () => undefined).destroy();
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: a ReadableStream's cancel ignores what return() gives
      return Promise.resolve({ done: true, value: undefined });
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}
