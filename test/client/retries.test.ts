// Retries as a caller sees them: how often a call is sent and what its error then says, how long the client waits
// between tries (capped exponential backoff with full jitter, Retry-After as seconds or as a date), which methods are
// sent again, and that a caller's abort ends a wait. Waits are recorded by an injected sleep unless a test is about the
// real one.
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createCarriersClient, createFleetClient, type RetryOptions } from '../../src/index.ts';
import { dropConnection, sendJson, startLoopbackServer, VEHICLE, type Handler, type LoopbackServer } from './loopback-server.ts';
import { recordingSleep } from './recording-sleep.ts';

const API_KEY = 'fleet-api-key-DO-NOT-PRINT-9012';
const CLIENT_SECRET = 'client-secret-DO-NOT-PRINT-1234';
const EVENT = { load_id: 'L-1', milestone_type: 'PICKED_UP', event_time: '2024-05-01T12:00:00Z' };
/** Jitter at its top: each backoff wait is its ceiling less 1 ms (whole ceilings under 2^20 ms). */
const HIGHEST = () => 1 - 2 ** -20;

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function fleet(handler: Handler, retry: RetryOptions = {}) {
  server = await startLoopbackServer(handler);
  return createFleetClient({ baseUrl: server.origin, fleetApiKey: API_KEY, retry });
}

/** Answers `statuses` in turn (the last one from then on); a Retry-After from `retryAfter` when given. */
const answering =
  (statuses: number[], retryAfter: Array<string | undefined> = []): Handler =>
  (_request, response, index) => {
    const status = statuses[Math.min(index, statuses.length - 1)]!;
    const hint = retryAfter[index];
    if (status === 200) return sendJson(response, 200, [VEHICLE]);
    sendJson(response, status, { message: 'busy' }, hint === undefined ? {} : { 'retry-after': hint });
  };

const failure = (call: Promise<unknown>) =>
  call.then(
    () => expect.fail('the call succeeded'),
    (error: unknown) => error as ApiError,
  );

describe('how often a call is sent, and what its error says', () => {
  it('sends a read 3 times by default, waiting under 200 ms and then under 400 ms, and the error says 3 attempts', async () => {
    const { sleep, waits } = recordingSleep();
    const client = await fleet(answering([503]), { sleep, random: HIGHEST });
    const error = await failure(client.GET('/vehicles'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.attempts).toBe(3);
    expect(error.message).toMatch(/^GET \/vehicles failed with status 503 after 3 attempts: busy /);
    expect(server!.requests).toHaveLength(3);
    expect(waits).toEqual([199, 399]);
  });

  it('says nothing of attempts when the call was sent once', async () => {
    const client = await fleet(answering([404]));
    const error = await failure(client.GET('/vehicles'));
    expect(error.attempts).toBe(1);
    expect(error.message).not.toContain('attempts');
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ attempts: 1 });
  });

  it('counts every try of a call that kept failing on the network', async () => {
    const { sleep } = recordingSleep();
    const client = await fleet((_request, response) => dropConnection(response), { attempts: 4, sleep });
    const error = await failure(client.GET('/vehicles'));
    expect(error.kind).toBe('network');
    expect(error.attempts).toBe(4);
    expect(error.message).toContain('failed: no response (network error) after 4 attempts');
    expect(server!.requests).toHaveLength(4);
  });

  it('sends no more than retry.attempts, whatever mix of network errors and statuses it meets', async () => {
    const { sleep } = recordingSleep();
    const client = await fleet(
      (request, response, index) => (index === 0 ? dropConnection(response) : answering([503])(request, response, index)),
      { attempts: 3, sleep },
    );
    const error = await failure(client.GET('/vehicles'));
    expect(error.status).toBe(503);
    expect(error.attempts).toBe(3);
    expect(server!.requests).toHaveLength(3);
  });

  it('counts the replay after a 401 as an attempt of the milestone POST', async () => {
    let issued = 0;
    server = await startLoopbackServer((request, response) => {
      if (request.url === '/token') {
        issued += 1;
        return sendJson(response, 200, { access_token: `token-${issued}`, token_type: 'Bearer', expired_in: 3600 });
      }
      if (request.headers.authorization === 'Bearer token-1') return sendJson(response, 401, { message: 'token expired' });
      sendJson(response, 503, { message: 'busy' });
    });
    const carriers = createCarriersClient({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    const error = await failure(carriers.POST('/v1/load-milestone-events', { body: EVENT }));
    // The replay got a 503, which a POST is not retried after.
    expect(error.status).toBe(503);
    expect(error.attempts).toBe(2);
    expect(error.message).toContain('after 2 attempts');
  });

  it('fails as a network error when the last try met one, after error statuses, saying how often it was sent', async () => {
    const { sleep } = recordingSleep();
    const client = await fleet(
      // The 503 closes its connection: a try on a kept-alive connection the server dropped would be sent once more.
      (_request, response, index) =>
        index === 0 ? sendJson(response, 503, { message: 'busy' }, { connection: 'close' }) : dropConnection(response),
      { attempts: 3, sleep },
    );
    const error = await failure(client.GET('/vehicles'));
    expect(error.kind).toBe('network');
    expect(error.attempts).toBe(3);
    expect(server!.requests).toHaveLength(3);
  });

  it("fails with an ApiError after the retries when the caller's fetch rejects with something that is not an Error", async () => {
    for (const reason of ['offline', null, 42]) {
      const { sleep, waits } = recordingSleep();
      let sent = 0;
      const client = createFleetClient({
        baseUrl: 'http://127.0.0.1:9',
        fleetApiKey: API_KEY,
        fetch: () => {
          sent += 1;
          return Promise.reject(reason);
        },
        retry: { sleep },
      });
      const error = await failure(client.GET('/vehicles'));
      expect(error, String(reason)).toBeInstanceOf(ApiError);
      expect(error.kind, String(reason)).toBe('network');
      expect(waits, String(reason)).toHaveLength(2);
      expect(sent, String(reason)).toBe(3);
    }
  });

  it("says how often each call was sent when the caller's fetch rejects with the same error every time", async () => {
    const offline = new Error('offline');
    const { sleep } = recordingSleep();
    const fetch = () => Promise.reject(offline);
    const client = createFleetClient({ baseUrl: 'http://127.0.0.1:9', fleetApiKey: API_KEY, fetch, retry: { sleep } });
    // The fleet API has only GET; any method can be sent through request().
    const send = client.request as unknown as (method: string, path: string) => Promise<unknown>;
    expect((await failure(client.GET('/vehicles'))).attempts).toBe(3);
    const once = await failure(send('post', '/vehicles'));
    expect(once.attempts).toBe(1);
    expect(once.message).not.toContain('attempts');
  });

  it('sends a call once with attempts: 1', async () => {
    const { sleep, waits } = recordingSleep();
    const client = await fleet(answering([503]), { attempts: 1, sleep });
    expect((await failure(client.GET('/vehicles'))).attempts).toBe(1);
    expect(server!.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('sends again the methods RFC 9110 calls idempotent, and not POST or PATCH', async () => {
    const sent: Record<string, number> = {};
    server = await startLoopbackServer((request, response) => {
      sent[request.method] = (sent[request.method] ?? 0) + 1;
      response.writeHead(503).end();
    });
    const { sleep } = recordingSleep();
    const client = createFleetClient({ baseUrl: server.origin, fleetApiKey: API_KEY, retry: { attempts: 2, sleep } });
    // The fleet API has only GET; any method can be sent through request().
    const send = client.request as unknown as (method: string, path: string, init?: object) => Promise<unknown>;
    for (const method of ['get', 'head', 'options', 'put', 'delete', 'post', 'patch'])
      await send(method, '/vehicles', { parseAs: 'text' }).catch(() => undefined);
    expect(sent).toEqual({ GET: 2, HEAD: 2, OPTIONS: 2, PUT: 2, DELETE: 2, POST: 1, PATCH: 1 });
  });
});

describe('how long the client waits', () => {
  it('doubles the backoff ceiling from baseDelayMs and caps it at maxDelayMs, 5 s by default', async () => {
    const { sleep, waits } = recordingSleep();
    const client = await fleet(answering([503]), { attempts: 8, sleep, random: HIGHEST });
    await failure(client.GET('/vehicles'));
    expect(waits).toEqual([199, 399, 799, 1599, 3199, 4999, 4999]);
    expect(Math.max(...waits)).toBeLessThan(5000);
  });

  it('never waits longer than maxDelayMs, and waits nothing at the bottom of the jitter', async () => {
    const { sleep, waits } = recordingSleep();
    const client = await fleet(answering([502]), { attempts: 4, baseDelayMs: 1000, maxDelayMs: 1500, sleep, random: HIGHEST });
    await failure(client.GET('/vehicles'));
    expect(waits).toEqual([999, 1499, 1499]);
    const bottom = recordingSleep();
    const patient = createFleetClient({ baseUrl: server!.origin, fleetApiKey: API_KEY, retry: { sleep: bottom.sleep, random: () => 0 } });
    await failure(patient.GET('/vehicles'));
    expect(bottom.waits).toEqual([0, 0]);
  });

  it('waits a Retry-After in whole seconds, spaces around it included', async () => {
    const { sleep, waits } = recordingSleep();
    const client = await fleet(answering([429, 429, 200], ['4', ' 0 ']), { sleep, random: HIGHEST });
    expect((await client.GET('/vehicles')).data).toEqual([VEHICLE]);
    expect(waits).toEqual([4000, 0]);
  });

  it('waits a Retry-After of up to maxRetryAfterMs (30 s by default), and surfaces a longer one at once', async () => {
    const { sleep, waits } = recordingSleep();
    const client = await fleet(answering([503, 200], ['30']), { sleep });
    await client.GET('/vehicles');
    expect(waits).toEqual([30_000]);
    const impatient = await fleet(answering([503, 200], ['31']), { sleep });
    const error = await failure(impatient.GET('/vehicles'));
    expect(error.status).toBe(503);
    expect(error.attempts).toBe(1);
    expect(waits).toEqual([30_000]);
  });

  it('backs off instead when Retry-After is empty', async () => {
    const { sleep, waits } = recordingSleep();
    const client = await fleet(answering([503, 200], ['']), { sleep, random: HIGHEST });
    await client.GET('/vehicles');
    expect(waits).toEqual([199]);
  });

  it('waits until a Retry-After date: an IMF-fixdate, and the obsolete asctime read as GMT in any time zone', async () => {
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 20_000);
    // toUTCString is the IMF-fixdate: 'Sun, 06 Nov 2094 08:49:37 GMT'.
    const [day, date, month, year, time] = at.toUTCString().replace(',', '').split(' ') as [string, string, string, string, string];
    const imf = at.toUTCString();
    const asctime = `${day} ${month} ${date.replace(/^0/, ' ')} ${time} ${year}`;
    const zone = process.env.TZ;
    // Read as local time, an asctime date would be hours off here.
    process.env.TZ = 'Pacific/Kiritimati';
    try {
      const { sleep, waits } = recordingSleep();
      const client = await fleet(answering([503, 503, 200], [imf, asctime]), { sleep, random: HIGHEST });
      await client.GET('/vehicles');
      expect(waits).toHaveLength(2);
      // 19 to 20 s ahead when sent; a busy machine takes some of that before the answer is read, never 9 s.
      for (const wait of waits) {
        expect(wait).toBeGreaterThan(10_000);
        expect(wait).toBeLessThanOrEqual(20_000);
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('goes at once after a Retry-After date in the past, in each of the three HTTP-date formats', async () => {
    const { sleep, waits } = recordingSleep();
    const past = ['Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994'];
    const client = await fleet(answering([503, 503, 503, 200], past), { attempts: 4, sleep, random: HIGHEST });
    await client.GET('/vehicles');
    expect(waits).toEqual([0, 0, 0]);
  });

  it('surfaces at once a Retry-After date beyond maxRetryAfterMs', async () => {
    const { sleep, waits } = recordingSleep();
    const client = await fleet(answering([503, 200], ['Fri Nov  6 08:49:37 2093']), { sleep });
    expect((await failure(client.GET('/vehicles'))).attempts).toBe(1);
    expect(waits).toEqual([]);
  });

  it('backs off instead of trusting a Retry-After that is no date: a wrong day name, a day of the month that does not exist', async () => {
    const { sleep, waits } = recordingSleep();
    const hints = [
      'Sun, 6 Nov 2094 08:49:37 GMT',
      'Xyz, 06 Nov 1994 08:49:37 GMT',
      'Mon, 99 Jan 2024 00:00:00 GMT',
      'Sun, 06 Nov 1994 08:49:37 UTC',
    ];
    const client = await fleet(answering([503, 503, 503, 503, 200], hints), {
      attempts: 5,
      baseDelayMs: 100,
      maxDelayMs: 100,
      sleep,
      random: HIGHEST,
    });
    await client.GET('/vehicles');
    expect(waits).toEqual([99, 99, 99, 99]);
  });
  it('backs off instead of trusting a Retry-After that is not whole seconds', async () => {
    const { sleep, waits } = recordingSleep();
    const client = await fleet(answering([503, 503, 503, 200], ['1.5', '5s', '-1']), {
      attempts: 4,
      baseDelayMs: 100,
      maxDelayMs: 100,
      sleep,
      random: HIGHEST,
    });
    await client.GET('/vehicles');
    expect(waits).toEqual([99, 99, 99]);
  });
});

describe('the retry options', () => {
  it('are checked when the client is built, each named', () => {
    const build = (retry: RetryOptions) => () => createFleetClient({ baseUrl: 'http://127.0.0.1:9', fleetApiKey: API_KEY, retry });
    for (const attempts of [0, 1.5, Number.NaN])
      expect(build({ attempts })).toThrow(new TypeError('createFleetClient: option "retry.attempts" must be an integer of at least 1'));
    for (const name of ['baseDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const)
      for (const value of [-1, Number.NaN, Number.POSITIVE_INFINITY])
        expect(build({ [name]: value })).toThrow(new TypeError(`createFleetClient: option "retry.${name}" must be a non-negative number`));
    expect(build({ attempts: 1, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 })).not.toThrow();
  });
});

describe("a caller's abort while the client waits to try again", () => {
  it('ends the wait at once with the caller’s reason, and sends nothing more', async () => {
    const controller = new AbortController();
    const reason = new Error('the user left');
    // The jitter is drawn just before the wait: the abort comes while the client waits (a minute, without it).
    const client = await fleet(answering([503]), {
      baseDelayMs: 60_000,
      maxDelayMs: 60_000,
      random: () => {
        setTimeout(() => controller.abort(reason), 0);
        return 1;
      },
    });
    expect(await client.GET('/vehicles', { signal: controller.signal }).catch((e: unknown) => e)).toBe(reason);
    expect(server!.requests).toHaveLength(1);
    // The wait's listener went with the abort: a signal the caller keeps holds nothing of the call.
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('ends it before it starts when the signal aborted while the answer was read', async () => {
    const controller = new AbortController();
    const reason = new Error('the user left');
    const client = await fleet(answering([503]), {
      baseDelayMs: 60_000,
      maxDelayMs: 60_000,
      random: () => {
        controller.abort(reason);
        return 1;
      },
    });
    expect(await client.GET('/vehicles', { signal: controller.signal }).catch((e: unknown) => e)).toBe(reason);
    expect(server!.requests).toHaveLength(1);
  });

  it('starts no wait after the caller aborted a call in flight', async () => {
    const controller = new AbortController();
    const reason = new Error('the user left');
    const asked: number[] = [];
    // A sleep that notes every wait it is asked for, aborted or not.
    const sleep = async (ms: number, signal: AbortSignal) => {
      asked.push(ms);
      signal.throwIfAborted();
    };
    const client = await fleet(
      (_request, response) => {
        controller.abort(reason);
        sendJson(response, 503, { message: 'busy' });
      },
      { sleep },
    );
    expect(await client.GET('/vehicles', { signal: controller.signal }).catch((e: unknown) => e)).toBe(reason);
    expect(asked).toEqual([]);
    expect(server!.requests).toHaveLength(1);
  });

  it('leaves no listener on a signal the caller keeps, once the waits are over', async () => {
    const controller = new AbortController();
    const client = await fleet(answering([503, 503, 200], ['0', '0']));
    await client.GET('/vehicles', { signal: controller.signal });
    expect(server!.requests).toHaveLength(3);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
