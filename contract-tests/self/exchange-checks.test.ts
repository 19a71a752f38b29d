// The registry of exchange checks: every promise the suite owes is in it, each check names its promise and operations,
// and each finds its broken promise on an exchange made to break it and nothing on one that keeps it. Shown failing on
// a removed check. Pure: the exchanges are built here, the context is given; no request is sent.
import { describe, expect, it } from 'vitest';
import { RunContext } from '../judge/context.ts';
import type { ExchangeCheck } from '../judge/exchange-check.ts';
import { EXCHANGE_CHECKS, exchangeCheckProblems, REQUIRED_CHECKS } from '../judge/exchange-checks.ts';
import type { Exchange } from '../send/fetch.ts';
import { specRegistry } from '../model/operations.ts';
import { findOperation } from '../send/fetch.ts';
import { workerRun } from '../support/worker-run.ts';
import { AnswerMemo } from '../judge/answer-memo.ts';
import type { Target } from '../send/target.ts';

// The worker's run: no check here records or redacts through it (judgeExchange does, and is not called here).
const run = workerRun();

const env: Target['env'] = {
  LP_BASE_URL: 'http://svc.test',
  LP_AUTH_URL: 'http://idp.test',
  LP_FLEET_BASE_URL: 'http://fleet.test',
  LP_CLIENT_ID: 'client-one',
  LP_CLIENT_SECRET: 'a-very-secret-client-secret',
  LP_SUBSCRIPTION_KEY: 'the-subscription-key-0123',
  LP_FLEET_API_KEY: 'the-fleet-api-key-0123456789',
  LP_REDIRECT_URI: 'http://client.test/callback',
  LP_FLEET_FOREIGN_CUSTOMER_NUMBER: 'C-FOREIGN',
};
const vehicle = (number: string, extra: Record<string, string> = {}) => ({
  customerNumber: 'C-OWN',
  vehicleNumber: number,
  vin: `VIN-${number}`,
  customerVehicleNumber: 'T-1',
  licensePlate: 'P-1',
  domicileLocationNumber: '01',
  domicileLocationName: 'X',
  vehicleType: 'TRACTOR',
  ...extra,
});
const contextOf = () =>
  new RunContext({
    env,
    capability: { verifiesCredentials: true, hasDataSemantics: true, advancesClock: false },
    ownFleet: async () => ({ vehicles: [vehicle('V-1'), vehicle('V-2')], complete: true }),
  });

interface Made {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  answerHeaders?: Record<string, string>;
  answer?: unknown;
}

/** An exchange as the one fetch hands it on: the operation found at its address in these settings. */
function exchangeOf(made: Made): Exchange {
  const method = made.method ?? 'GET';
  const target = { name: 'sandbox', env, writesAllowed: false } as Target;
  const operation = findOperation(target, method, made.url);
  const bodyText = made.answer === undefined ? '' : typeof made.answer === 'string' ? made.answer : JSON.stringify(made.answer);
  const answerHeaders = { 'content-type': 'application/json', ...made.answerHeaders };
  return {
    run,
    request: { method, url: made.url, headers: new Headers(made.headers), body: made.body ?? '' },
    response: new Response(null, { status: made.status, headers: answerHeaders }),
    bodyText,
    operation,
    pathOnly: operation ? undefined : findOperation(target, undefined, made.url),
    meta: {},
    sentAt: Date.now(),
    answeredAt: Date.now(),
    test: 'self',
    findings: [],
    problems: [],
    observed: { request: '', status: made.status, contentType: 'application/json', body: '' },
  };
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const KEY = { 'api-key': env.LP_FLEET_API_KEY! };
/** The gateway's key in place: a refusal is then the bearer token's. */
const SUBSCRIPTION = { 'ocp-apim-subscription-key': env.LP_SUBSCRIPTION_KEY! };
const SERVICE_FORM = `grant_type=client_credentials&client_id=${env.LP_CLIENT_ID}&client_secret=${env.LP_CLIENT_SECRET}`;
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
const TOKEN = { access_token: 'tok-0123456789abcdef', token_type: 'Bearer', expired_in: 3600 };
/** The token service's answer as RFC 6749 5.1 has it: a token by POST, not to be cached. */
const GOOD_TOKEN_ANSWER: Made = {
  method: 'POST',
  url: 'http://svc.test/token',
  headers: FORM,
  body: SERVICE_FORM,
  status: 200,
  answer: TOKEN,
  answerHeaders: NO_STORE,
};

/** For each check: an exchange that breaks its promise, one that keeps it, and what the context knew before. */
const CASES: Record<(typeof REQUIRED_CHECKS)[number], { breaks: Made; keeps: Made; before?: (context: RunContext) => void }> = {
  'no-server-error': {
    breaks: { url: 'http://fleet.test/vehicles', headers: KEY, status: 503, answer: {} },
    keeps: { url: 'http://fleet.test/vehicles', headers: KEY, status: 200, answer: [] },
  },
  'documented-answer': {
    breaks: { url: 'http://fleet.test/vehicles', headers: KEY, status: 200, answer: [{ ...vehicle('V-1'), vin: undefined }] },
    keeps: { url: 'http://fleet.test/vehicles', headers: KEY, status: 200, answer: [vehicle('V-1')] },
  },
  'lessee-isolation': {
    breaks: {
      url: 'http://fleet.test/vehicles?sort=vin%20desc',
      headers: KEY,
      status: 200,
      answer: [vehicle('V-1'), vehicle('V-9', { customerNumber: 'C-OTHER' })],
    },
    keeps: { url: 'http://fleet.test/vehicles?sort=vin%20desc', headers: KEY, status: 200, answer: [vehicle('V-2'), vehicle('V-1')] },
  },
  'foreign-identifiers-undisclosed': {
    breaks: {
      url: 'http://fleet.test/vehicles/V-FOREIGN',
      headers: KEY,
      status: 404,
      answer: { message: 'Vehicle V-FOREIGN belongs to customer C-FOREIGN.' },
    },
    keeps: { url: 'http://fleet.test/vehicles/V-FOREIGN', headers: KEY, status: 404, answer: { message: 'No vehicle V-FOREIGN.' } },
  },
  'no-credential-echo': {
    breaks: {
      url: 'http://fleet.test/vehicles',
      headers: KEY,
      status: 401,
      answer: { message: `bad key ${Buffer.from(env.LP_FLEET_API_KEY!).toString('base64')}` },
    },
    keeps: { url: 'http://fleet.test/vehicles', headers: KEY, status: 401, answer: { message: 'bad key' } },
  },
  'rfc6749-token-answer': {
    breaks: { method: 'POST', url: 'http://svc.test/token', headers: FORM, body: SERVICE_FORM, status: 200, answer: TOKEN },
    keeps: GOOD_TOKEN_ANSWER,
  },
  'rfc6749-refusals': {
    breaks: { method: 'GET', url: `http://svc.test/token?${SERVICE_FORM}`, status: 200, answer: TOKEN, answerHeaders: NO_STORE },
    keeps: GOOD_TOKEN_ANSWER,
  },
  'rfc6750-bearer-challenge': {
    breaks: {
      method: 'POST',
      url: 'http://svc.test/v1/load-milestone-events',
      headers: { authorization: 'Bearer never-issued', ...SUBSCRIPTION },
      status: 401,
      answer: {},
    },
    keeps: {
      method: 'POST',
      url: 'http://svc.test/v1/load-milestone-events',
      headers: { authorization: 'Bearer never-issued', ...SUBSCRIPTION },
      status: 401,
      answer: {},
      answerHeaders: { 'www-authenticate': 'Bearer realm="carriers", error="invalid_token"' },
    },
  },
  'token-lifetime': {
    before: (context) =>
      context.tokens.set('young-token', { receivedAt: Date.now(), lifetimeSeconds: 3600, operationId: 'requestServiceToken' }),
    breaks: {
      method: 'POST',
      url: 'http://svc.test/v1/load-milestone-events',
      headers: { authorization: 'Bearer young-token', ...SUBSCRIPTION },
      status: 401,
      answer: {},
    },
    keeps: {
      method: 'POST',
      url: 'http://svc.test/v1/load-milestone-events',
      headers: { authorization: 'Bearer young-token', ...SUBSCRIPTION },
      status: 400,
      answer: {},
    },
  },
  'get-one-asked': {
    breaks: { url: 'http://fleet.test/vehicles/V-1', headers: KEY, status: 200, answer: vehicle('V-2') },
    keeps: { url: 'http://fleet.test/vehicles/V-1', headers: KEY, status: 200, answer: vehicle('V-1') },
  },
  'get-one-agrees-with-list': {
    before: (context) => context.listed.set('V-1', vehicle('V-1')),
    breaks: { url: 'http://fleet.test/vehicles/V-1', headers: KEY, status: 200, answer: vehicle('V-1', { licensePlate: 'P-OTHER' }) },
    keeps: { url: 'http://fleet.test/vehicles/V-1', headers: KEY, status: 200, answer: vehicle('V-1') },
  },
  'list-matches-filters': {
    breaks: { url: 'http://fleet.test/vehicles?vin=VIN-V-1', headers: KEY, status: 200, answer: [vehicle('V-1'), vehicle('V-2')] },
    keeps: { url: 'http://fleet.test/vehicles?vin=VIN-V-1', headers: KEY, status: 200, answer: [vehicle('V-1')] },
  },
  'list-agrees-with-unfiltered': {
    // Sorted, V-2 comes with another license plate than the unfiltered list shows.
    breaks: {
      url: 'http://fleet.test/vehicles?sort=vin%20desc',
      headers: KEY,
      status: 200,
      answer: [vehicle('V-2', { licensePlate: 'P-9' }), vehicle('V-1')],
    },
    keeps: { url: 'http://fleet.test/vehicles?sort=vin%20desc', headers: KEY, status: 200, answer: [vehicle('V-2'), vehicle('V-1')] },
  },
  'refusals-disclose-nothing': {
    breaks: { url: 'http://fleet.test/vehicles/V-1', headers: KEY, status: 404, answer: { message: 'no', vin: 'VIN-SECRET-9' } },
    keeps: { url: 'http://fleet.test/vehicles/V-1', headers: KEY, status: 404, answer: { message: 'no such vehicle' } },
  },
  'credentials-refused': {
    breaks: { url: 'http://fleet.test/vehicles', headers: { 'api-key': 'not-the-key' }, status: 200, answer: [] },
    keeps: { url: 'http://fleet.test/vehicles', headers: KEY, status: 200, answer: [] },
  },
  'authorize-redirect': {
    breaks: {
      url: `http://idp.test/oauth2/default/v1/authorize?client_id=${env.LP_CLIENT_ID}&response_type=code&redirect_uri=http%3A%2F%2Fclient.test%2Fcallbackx&scope=s&state=st`,
      status: 302,
      answerHeaders: { location: 'http://client.test/callbackx?code=c1&state=st' },
    },
    keeps: {
      url: `http://idp.test/oauth2/default/v1/authorize?client_id=${env.LP_CLIENT_ID}&response_type=code&redirect_uri=http%3A%2F%2Fclient.test%2Fcallback&scope=s&state=st`,
      status: 302,
      answerHeaders: { location: 'http://client.test/callback?code=c1&state=st' },
    },
  },
  'code-bound-to-grant': {
    before: (context) =>
      context.codes.set('code-1', {
        receivedAt: Date.now(),
        redirectUri: env.LP_REDIRECT_URI,
        clientId: env.LP_CLIENT_ID,
        redeemed: false,
      }),
    breaks: {
      method: 'POST',
      url: 'http://idp.test/oauth2/default/v1/token',
      headers: { ...FORM, 'ocp-apim-subscription-key': env.LP_SUBSCRIPTION_KEY! },
      body: `grant_type=authorization_code&code=code-1&client_id=${env.LP_CLIENT_ID}&client_secret=${env.LP_CLIENT_SECRET}`,
      status: 200,
      answer: { access_token: 'tok-a', token_type: 'Bearer' },
      answerHeaders: NO_STORE,
    },
    keeps: {
      method: 'POST',
      url: 'http://idp.test/oauth2/default/v1/token',
      headers: { ...FORM, 'ocp-apim-subscription-key': env.LP_SUBSCRIPTION_KEY! },
      body: `grant_type=authorization_code&code=code-1&client_id=${env.LP_CLIENT_ID}&client_secret=${env.LP_CLIENT_SECRET}&redirect_uri=${encodeURIComponent(env.LP_REDIRECT_URI!)}`,
      status: 200,
      answer: { access_token: 'tok-a', token_type: 'Bearer' },
      answerHeaders: NO_STORE,
    },
  },
};

const checkOf = (id: string): ExchangeCheck => EXCHANGE_CHECKS.find((c) => c.id === id)!;
const violationsOf = async (id: string, made: Made, before?: (context: RunContext) => void) => {
  const context = contextOf();
  before?.(context);
  return (await checkOf(id).judge(exchangeOf(made), context)).filter((f) => f.verdict === 'violation');
};

describe('the registry of exchange checks', () => {
  it('has every check the suite owes, each with its promise and the operations it judges', () => {
    expect(
      exchangeCheckProblems(
        EXCHANGE_CHECKS,
        specRegistry().map((e) => e.operationId),
      ),
    ).toEqual([]);
  });

  it.for(REQUIRED_CHECKS)('fails when "%s" is removed', (id) => {
    const without = EXCHANGE_CHECKS.filter((c) => c.id !== id);
    expect(
      exchangeCheckProblems(
        without,
        specRegistry().map((e) => e.operationId),
      ),
    ).toContain(`the exchange check "${id}" is missing`);
  });

  it.for(REQUIRED_CHECKS)('"%s" finds its broken promise, and nothing where it is kept', async (id) => {
    const { breaks, keeps, before } = CASES[id];
    const found = await violationsOf(id, breaks, before);
    expect(found.length, `${id} on an exchange that breaks it`).toBeGreaterThan(0);
    expect(found.every((f) => f.check === id && f.promise.length > 0)).toBe(true);
    expect(await violationsOf(id, keeps, before), `${id} on an exchange that keeps it`).toEqual([]);
  });

  it('rfc6749-token-answer: a refusal in the media type the client asked for before JSON is not judged for its JSON', async () => {
    // oidc-provider (certified) renders its errors as HTML to a client whose Accept prefers text/html.
    const refusal = (accept: string | undefined) => ({
      method: 'POST',
      url: 'http://svc.test/token',
      headers: { ...FORM, ...(accept ? { accept } : {}) },
      body: `${SERVICE_FORM}&client_secret=again`,
      status: 400,
      answerHeaders: { 'content-type': 'text/html; charset=utf-8' },
      answer: '<!DOCTYPE html><title>oops! something went wrong</title>',
    });
    for (const accept of ['text/html', 'text/html;q=0.9, application/json;q=0.1'])
      expect(await violationsOf('rfc6749-token-answer', refusal(accept)), accept).toEqual([]);
    for (const accept of [undefined, 'application/json', 'application/json, text/html;q=0.5', '*/*'])
      expect(
        (await violationsOf('rfc6749-token-answer', refusal(accept))).map((f) => f.message),
        String(accept),
      ).toEqual([expect.stringMatching(/the refusal is not a JSON object \(text\/html\)/)]);
  });

  it('list-agrees-with-unfiltered: a list filtered by one value holds every vehicle of the unfiltered list with it', async () => {
    // Both own vehicles have the customer vehicle number T-1: the filter by it must bring both.
    const url = 'http://fleet.test/vehicles?customervehicleNumber=T-1&sort=vin%20asc';
    const left = await violationsOf('list-agrees-with-unfiltered', { url, headers: KEY, status: 200, answer: [vehicle('V-1')] });
    expect(left.map((f) => f.message)).toEqual([expect.stringMatching(/left out 1 of the 2 vehicles .*'V-2'/)]);
    const whole = [vehicle('V-1'), vehicle('V-2')];
    expect(await violationsOf('list-agrees-with-unfiltered', { url, headers: KEY, status: 200, answer: whole })).toEqual([]);
  });
});

describe('answers that come again (judge/answer-memo.ts)', () => {
  /** The fleet list's 429: Retry-After is a documented header of it, judged by its grammar. */
  const throttled = (retryAfter: string, headers: Record<string, string> = {}, message = 'slow down') => ({
    url: 'http://fleet.test/vehicles',
    headers: KEY,
    status: 429,
    answerHeaders: { 'retry-after': retryAfter, ...headers },
    answer: { message },
  });
  /** What the check finds, of any verdict: a header the spec only assumed contradicts that assumption. */
  const messages = async (id: string, made: Made) =>
    (await checkOf(id).judge(exchangeOf(made), contextOf())).filter((f) => f.verdict !== 'confirmed').map((f) => f.message);

  it('judges an answer alike each time it comes, and by all of it: a documented header, the body, any header', async () => {
    const secret = env.LP_FLEET_API_KEY!;
    for (const round of [1, 2, 3]) {
      expect(await messages('documented-answer', throttled('5')), `round ${round}`).toEqual([]);
      expect(await messages('documented-answer', throttled('soon')), `round ${round}`).toEqual([
        expect.stringMatching(/header Retry-After "soon" is not/),
      ]);
      expect(await messages('no-credential-echo', throttled('5')), `round ${round}`).toEqual([]);
      expect(await messages('no-credential-echo', throttled('5', { 'x-debug': secret })), `round ${round}`).toHaveLength(1);
      // Encoded, in a header line of its own among lines seen before.
      const encoded = { 'x-trace': encodeURIComponent(Buffer.from(secret).toString('base64')) };
      expect(await messages('no-credential-echo', throttled('5', encoded)), `round ${round}`).toHaveLength(1);
      expect(await messages('no-credential-echo', throttled('5', {}, `key ${secret}`)), `round ${round}`).toHaveLength(1);
    }
  });

  it('finds a token issued since an answer was judged in that answer when it comes again, in a header line and in the body', async () => {
    const token = `issued-later-${Date.now()}-a-token-of-some-length`;
    const inHeader = throttled('5', { 'x-debug': `token ${token}` });
    const inBody = throttled('5', {}, `token ${token}`);
    const context = contextOf();
    const found = async (made: Made) => (await checkOf('no-credential-echo').judge(exchangeOf(made), context)).length;
    expect([await found(inHeader), await found(inBody)], 'before the token is issued').toEqual([0, 0]);
    context.tokens.set(token, { receivedAt: Date.now(), lifetimeSeconds: 3600, operationId: 'requestServiceToken' });
    expect([await found(inHeader), await found(inBody)], 'once it is held').toEqual([1, 1]);
  });

  it('keeps at most 500 results, the oldest forgotten first, and none for a key over 8,192 characters', () => {
    const memo = new AnswerMemo<number>();
    let worked = 0;
    const work = () => ++worked;
    for (let i = 0; i < 501; i++) memo.of(`answer ${i}`, work);
    expect(memo.size).toBe(500);
    expect(memo.of('answer 500', work)).toBe(501);
    expect(memo.of('answer 0', work)).toBe(502);
    const long = 'x'.repeat(8_193);
    expect([memo.of(long, work), memo.of(long, work)]).toEqual([503, 504]);
    expect(memo.size).toBe(500);
  });
});
