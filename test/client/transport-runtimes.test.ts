// The transport where fetch and timers are not Node's: a browser's timers are numbers, its fetch hides a redirect
// (an opaque redirect, status 0) and a no-cors answer (opaque, status 0), and a caller's fetch may build an answer
// without a body. Each answer comes from a fetch of the caller's that answers from memory.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createFleetClient } from '../../src/index.ts';
import { VEHICLE } from './loopback-server.ts';

const API_KEY = 'fleet-api-key-DO-NOT-PRINT-3456';
const ORIGIN = 'http://fleet.partner.invalid';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A fleet client whose fetch gives `answer()` to every call, one attempt per call. */
const answering = (answer: () => Response) =>
  createFleetClient({ baseUrl: ORIGIN, fleetApiKey: API_KEY, fetch: async () => answer(), retry: { attempts: 1 } });

/** What a browser's fetch gives where Node's would not: status 0, of the given type. */
const opaque = (type: ResponseType) =>
  Object.defineProperties(new Response(null, { status: 500 }), { type: { value: type }, status: { value: 0 }, ok: { value: false } });

const failure = async (call: Promise<unknown>) => {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
};

describe('in a browser', () => {
  it('calls succeed where a timer is a number, with nothing to unref', async () => {
    const nodeSetTimeout = globalThis.setTimeout;
    const numbers: unknown[] = [];
    vi.stubGlobal('setTimeout', (...args: Parameters<typeof setTimeout>) => {
      numbers.push(Number(nodeSetTimeout(...args)));
      return numbers.at(-1);
    });
    const fleet = answering(() => Response.json([VEHICLE]));
    expect((await fleet.GET('/vehicles')).data).toEqual([VEHICLE]);
    expect(numbers.length).toBeGreaterThan(0);
  });

  it('an opaque redirect is a redirect that names no host', async () => {
    const error = await failure(answering(() => opaque('opaqueredirect')).GET('/vehicles'));
    expect(error).toMatchObject({ kind: 'redirect', status: 0, redirectHost: undefined });
    expect(error.message).toContain('was redirected (status 0) to an undisclosed location: not followed');
  });

  it('an opaque answer (a no-cors fetch) is an error status 0, not a redirect', async () => {
    const error = await failure(answering(() => opaque('opaque')).GET('/vehicles'));
    expect(error).toMatchObject({ kind: 'http', status: 0 });
  });
});

describe("an answer without a body, as a caller's fetch may build it", () => {
  it('a 205 (Reset Content) is a success without data', async () => {
    const { data, response } = await answering(() => new Response(null, { status: 205 })).GET('/vehicles');
    expect(response.status).toBe(205);
    expect(data ?? undefined).toBeUndefined();
  });

  it('a 200 is invalid_response: the body is empty', async () => {
    const fleet = answering(() => new Response(null, { status: 200, headers: { 'content-type': 'application/json' } }));
    const error = await failure(fleet.GET('/vehicles'));
    expect(error).toMatchObject({ kind: 'invalid_response', status: 200 });
    expect(error.message).toContain(': the body is empty [');
  });
});
