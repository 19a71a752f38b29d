// Load milestones: bearer-only access with issued, unexpired tokens; 400 for malformed
// JSON, missing fields and non-UTC times; recorded events visible on the inspection route.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aMilestone, defaults, recordMilestone, serviceToken } from './api-calls.ts';
import { startInProcess, useSandboxWithToken } from './sandbox-process.ts';

const shared = useSandboxWithToken();

const events = async (origin: string, loadId: string) =>
  (await (await fetch(`${origin}/_sandbox/load-milestone-events?load_id=${encodeURIComponent(loadId)}`)).json()) as Record<
    string,
    unknown
  >[];

describe('POST {base_url}/v1/load-milestone-events', () => {
  it('records a milestone and confirms with a message', async () => {
    const event = { ...aMilestone, load_id: 'LD-RECORD-1' };
    const response = await recordMilestone(shared.sandbox.origin, shared.token, event);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ message: expect.stringMatching(/\S/) });
    expect(await events(shared.sandbox.origin, 'LD-RECORD-1')).toEqual([
      expect.objectContaining({ ...event, client_id: defaults.LP_CLIENT_ID }),
    ]);
  });

  it('accepts the subscription key alongside the token', async () => {
    const response = await recordMilestone(shared.sandbox.origin, shared.token, aMilestone, {
      'ocp-apim-subscription-key': defaults.LP_SUBSCRIPTION_KEY,
    });
    expect(response.status).toBe(200);
  });

  it.each([
    ['no Authorization header', undefined, {}],
    ['a token that was never issued', 'not-a-real-token', {}],
    ['a Basic credential', undefined, { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
  ])('refuses %s with 401 and WWW-Authenticate: Bearer, recording nothing', async (_label, bearer, headers) => {
    const event = { ...aMilestone, load_id: `LD-REFUSED-${_label}` };
    const response = await recordMilestone(shared.sandbox.origin, bearer, event, headers);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await events(shared.sandbox.origin, event.load_id)).toEqual([]);
  });

  it('checks the token before the body (no token + malformed JSON → 401)', async () => {
    expect((await recordMilestone(shared.sandbox.origin, undefined, '{"load_id":')).status).toBe(401);
  });

  it('answers malformed JSON with 400 and a clear message', async () => {
    const response = await recordMilestone(shared.sandbox.origin, shared.token, '{"load_id": "LD-1", ');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/JSON/);
  });

  it.each(['load_id', 'milestone_type', 'event_time'])('answers a missing %s with 400 naming it', async (field) => {
    const { [field as keyof typeof aMilestone]: _omitted, ...event } = aMilestone;
    const response = await recordMilestone(shared.sandbox.origin, shared.token, event);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(field);
  });

  it.each([
    ['an offset other than UTC', '2026-11-22T15:30:00+01:00'],
    ['no offset at all', '2026-11-22T14:30:00'],
    ['a date only', '2026-11-22'],
    ['not a timestamp', 'yesterday'],
    ['an impossible date', '2026-13-45T14:30:00Z'],
    ['a Unix time string', '1795322070'],
  ])('answers event_time with %s with 400', async (_label, eventTime) => {
    const response = await recordMilestone(shared.sandbox.origin, shared.token, { ...aMilestone, event_time: eventTime });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('event_time');
  });

  it.each(['2026-11-22T14:30:00Z', '2026-11-22T14:30:00.123Z', '2026-11-22T14:30:00+00:00'])(
    'accepts the UTC timestamp %s',
    async (eventTime) => {
      expect((await recordMilestone(shared.sandbox.origin, shared.token, { ...aMilestone, event_time: eventTime })).status).toBe(200);
    },
  );

  it('answers a non-JSON content type with 400', async () => {
    const response = await recordMilestone(shared.sandbox.origin, shared.token, 'load_id=1', { 'content-type': 'text/plain' });
    expect(response.status).toBe(400);
  });

  it('answers a JSON array body with 400', async () => {
    expect((await recordMilestone(shared.sandbox.origin, shared.token, [aMilestone])).status).toBe(400);
  });
});

describe('--data persistence', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lp-sandbox-data-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('appends events as JSON lines and loads them on the next start', async () => {
    const dataFile = join(dir, 'events.jsonl');
    const first = await startInProcess({ dataFile });
    try {
      const response = await recordMilestone(first.origin, await serviceToken(first.origin), { ...aMilestone, load_id: 'LD-PERSIST' });
      expect(response.status).toBe(200);
    } finally {
      await first.close();
    }
    const lines = readFileSync(dataFile, 'utf8').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line).load_id)).toEqual(['LD-PERSIST']);
    const second = await startInProcess({ dataFile });
    try {
      expect(await events(second.origin, 'LD-PERSIST')).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
