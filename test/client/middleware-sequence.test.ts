// sequence() runs several openapi-fetch middlewares as one, as openapi-fetch runs them listed: each scenario is run
// through openapi-fetch twice, with the middlewares listed and as one sequence, against an injected recording fetch, and
// both runs must give the same hooks in the same order, with the same requests, responses and errors, and the same
// outcome (which is also spelled out, so that the test fails if openapi-fetch itself changed).
import createClient, { type Middleware } from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { sequence } from '../../src/middleware-sequence.ts';

const ORIGIN = 'http://127.0.0.1:9';

interface Run {
  /** Each hook as it ran: `<middleware>.<hook> <what it was given>`, and each fetch. */
  log: string[];
  outcome: string;
}

/** What fetch does: answers with a Response, or rejects with `rejects` (an Error or any other value). */
type Answer = (request: Request) => Response | { rejects: unknown };

/** Runs one GET /things through openapi-fetch with `make()`'s middlewares, listed or as one sequence. */
async function run(make: (log: string[]) => Middleware[], answer: Answer, asSequence: boolean): Promise<Run> {
  const log: string[] = [];
  const fetch = async (request: Request) => {
    log.push(`fetch ${request.headers.get('x-step') ?? '-'}`);
    const answered = answer(request);
    if (answered instanceof Response) return answered;
    throw answered.rejects;
  };
  const client = createClient<Record<string, never>>({ baseUrl: ORIGIN, fetch });
  const middlewares = make(log);
  if (asSequence) client.use(sequence(...middlewares));
  else client.use(...middlewares);
  try {
    const result = (await client.request('get', '/things' as never, { parseAs: 'text' } as never)) as {
      data?: string;
      error?: unknown;
      response: Response;
    };
    return { log, outcome: `${result.response.status} ${String(result.data ?? result.error)}` };
  } catch (error) {
    return { log, outcome: `throws ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The same scenario listed and as a sequence: both runs must be this one. */
async function expectSame(make: (log: string[]) => Middleware[], answer: Answer, expected: Run): Promise<void> {
  const listed = await run(make, answer, false);
  const sequenced = await run(make, answer, true);
  expect(listed).toEqual(expected);
  expect(sequenced).toEqual(expected);
}

const ok: Answer = () => new Response('ok', { status: 200 });
const step = (request: Request) => request.headers.get('x-step') ?? '-';
/** Waits a turn of the event loop first: a hook that returns a promise. */
const later = <T>(value: T) => new Promise<T>((resolve) => setImmediate(() => resolve(value)));
/** A thenable that is not a Promise, which openapi-fetch awaits all the same (typed as a Promise, as the hooks' types ask). */
const thenable = <T>(value: T) =>
  ({
    // biome-ignore lint/suspicious/noThenProperty: this object is a thenable on purpose
    then: (resolve: (value: T) => unknown) => Promise.resolve(resolve(value)),
  }) as unknown as Promise<T>;

describe('sequence() runs middlewares as openapi-fetch runs them listed', () => {
  it('onRequest in order, each given the request the one before returned; onResponse in reverse, each given the response before', async () => {
    await expectSame(
      (log) => [
        {
          onRequest({ request }) {
            log.push(`a.onRequest ${step(request)}`);
            const next = new Request(request, { headers: { 'x-step': 'a' } });
            return next;
          },
          onResponse({ response, request }) {
            log.push(`a.onResponse ${response.status} ${step(request)}`);
            return undefined;
          },
        },
        {
          onRequest({ request }) {
            log.push(`b.onRequest ${step(request)}`);
            return later(new Request(request, { headers: { 'x-step': 'b' } }));
          },
          onResponse({ response }) {
            log.push(`b.onResponse ${response.status}`);
            return new Response('from b', { status: 201 });
          },
        },
        {
          onRequest({ request }) {
            log.push(`c.onRequest ${step(request)}`);
            return undefined;
          },
          onResponse({ response }) {
            log.push(`c.onResponse ${response.status}`);
            return thenable(new Response('from c', { status: 202 }));
          },
        },
      ],
      ok,
      {
        log: ['a.onRequest -', 'b.onRequest a', 'c.onRequest b', 'fetch b', 'c.onResponse 200', 'b.onResponse 202', 'a.onResponse 201 b'],
        outcome: '201 from b',
      },
    );
  });

  it('a Response from onRequest is the answer: nothing is fetched and the onRequest hooks after it do not run', async () => {
    await expectSame(
      (log) => [
        {
          onRequest() {
            log.push('a.onRequest');
            return later(new Response('answered by a', { status: 203 }));
          },
          onResponse({ response }) {
            log.push(`a.onResponse ${response.status}`);
            return undefined;
          },
        },
        {
          onRequest() {
            log.push('b.onRequest');
            return undefined;
          },
        },
      ],
      ok,
      { log: ['a.onRequest'], outcome: '203 answered by a' },
    );
  });

  it('nothing changed: the request and response go on as they were', async () => {
    await expectSame(
      (log) => [
        {
          onRequest({ request }) {
            log.push(`a.onRequest ${step(request)}`);
            return thenable(undefined);
          },
          onResponse({ response }) {
            log.push(`a.onResponse ${response.status}`);
            return later(undefined);
          },
        },
        {
          onRequest({ request }) {
            log.push(`b.onRequest ${step(request)}`);
            return undefined;
          },
          onResponse({ response }) {
            log.push(`b.onResponse ${response.status}`);
            return undefined;
          },
        },
      ],
      ok,
      { log: ['a.onRequest -', 'b.onRequest -', 'fetch -', 'b.onResponse 200', 'a.onResponse 200'], outcome: '200 ok' },
    );
  });

  it('onError in reverse, each given the error before; a Response ends the turn, and every onResponse then runs with it', async () => {
    await expectSame(
      (log) => [
        {
          onError({ error }) {
            log.push(`a.onError ${(error as Error).message}`);
            return undefined;
          },
          onResponse({ response }) {
            log.push(`a.onResponse ${response.status}`);
            return undefined;
          },
        },
        {
          onError({ error }) {
            log.push(`b.onError ${(error as Error).message}`);
            return later(new Response('recovered by b', { status: 200 }));
          },
        },
        {
          onError({ error }) {
            log.push(`c.onError ${(error as Error).message}`);
            return new Error('from c');
          },
          onResponse({ response }) {
            log.push(`c.onResponse ${response.status}`);
            return undefined;
          },
        },
      ],
      () => ({ rejects: new Error('refused') }),
      {
        log: ['fetch -', 'c.onError refused', 'b.onError from c', 'c.onResponse 200', 'a.onResponse 200'],
        outcome: '200 recovered by b',
      },
    );
  });

  it('an Error from onError replaces the error for the hooks after it and is what the call throws', async () => {
    await expectSame(
      (log) => [
        {
          onError({ error }) {
            log.push(`a.onError ${(error as Error).message}`);
            return undefined;
          },
        },
        {
          onError({ error }) {
            log.push(`b.onError ${(error as Error).message}`);
            return thenable(new Error('from b'));
          },
        },
      ],
      () => ({ rejects: new Error('refused') }),
      { log: ['fetch -', 'b.onError refused', 'a.onError from b'], outcome: 'throws from b' },
    );
  });

  it('onError hooks that change nothing leave the error as fetch threw it, a value that is not an Error included', async () => {
    await expectSame(
      (log) => [
        {
          onError({ error }) {
            log.push(`a.onError ${String(error)}`);
            return undefined;
          },
        },
        {
          onError({ error }) {
            log.push(`b.onError ${String(error)}`);
            return later(undefined);
          },
        },
      ],
      () => ({ rejects: 'a reason' }),
      { log: ['fetch -', 'b.onError a reason', 'a.onError a reason'], outcome: 'throws a reason' },
    );
  });

  it('a hook that throws ends the call with its error: the hooks after it do not run', async () => {
    await expectSame(
      (log) => [
        {
          onResponse() {
            log.push('a.onResponse');
            return undefined;
          },
        },
        {
          onResponse() {
            log.push('b.onResponse');
            return Promise.reject(new Error('b refused the answer'));
          },
        },
      ],
      ok,
      { log: ['fetch -', 'b.onResponse'], outcome: 'throws b refused the answer' },
    );
  });
});

describe('the sequence as one middleware', () => {
  it('has only the hooks some middleware has, so that openapi-fetch awaits no other', () => {
    const onResponse = () => undefined;
    const combined = sequence({ onResponse }, { onResponse });
    expect(Object.keys(combined)).toEqual(['onResponse']);
    expect(Object.keys(sequence({ onRequest: () => undefined }, { onError: () => undefined }))).toEqual(['onRequest', 'onError']);
  });

  it('a hook only one middleware has is that hook itself, called on its middleware', () => {
    const middleware = {
      seen: [] as string[],
      onRequest(this: { seen: string[] }) {
        this.seen.push('onRequest');
        return undefined;
      },
    };
    const combined = sequence(middleware, { onResponse: () => undefined });
    combined.onRequest?.({} as never);
    expect(middleware.seen).toEqual(['onRequest']);
  });
});
