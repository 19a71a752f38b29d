// A violation's evidence shows where each credential comes from, never its value: the request names the LP_*
// variables, and the curl takes them from the environment, so it can be pasted as it is.
import { describe, expect, it } from 'vitest';
import { evidenceOf } from '../send/evidence.ts';
import { skipIf } from '../support/skips.ts';
import { reasonIfUnset } from '../send/target.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
const { target } = run;

const needs = () => reasonIfUnset(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY', 'LP_BASE_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET');
const redact = (text: string) => text;

describe('the evidence of a violation', () => {
  it('names each credential and base URL by its LP_* variable, in the request shown and in the curl', (ctx) => {
    skipIf(run, ctx, [], needs());
    const key = target.env.LP_FLEET_API_KEY!;
    const token = 'issued-token-0123456789';
    const evidence = evidenceOf(
      target,
      {
        method: 'GET',
        url: `${target.env.LP_FLEET_BASE_URL}/vehicles?vin=a"b$c`,
        headers: new Headers({ 'API-Key': key, authorization: `Bearer ${token}`, 'user-agent': 'node' }),
        body: '',
      },
      { status: 200, contentType: 'application/json', body: '[ {"vehicleNumber": "V-1"} ]' },
      [token],
      redact,
    );
    // The mock serves every API at one address: any variable holding that address names it.
    const base = (['LP_BASE_URL', 'LP_AUTH_URL', 'LP_FLEET_BASE_URL'] as const).find(
      (v) => target.env[v] === target.env.LP_FLEET_BASE_URL,
    )!;
    expect(evidence.request.url).toBe(`$${base}/vehicles?vin=a"b$c`);
    expect(evidence.request.headers).toEqual({ 'api-key': '$LP_FLEET_API_KEY', authorization: 'Bearer $LP_ACCESS_TOKEN' });
    // Literal quotes, dollars and backquotes are escaped: the shell expands only the variables.
    expect(evidence.curl).toBe(
      `curl -sS -i -X GET "\${${base}}/vehicles?vin=a\\"b\\$c" \\\n  -H "api-key: \${LP_FLEET_API_KEY}" \\\n  -H "authorization: Bearer \${LP_ACCESS_TOKEN}"`,
    );
    expect(JSON.stringify(evidence)).not.toContain(key);
    expect(JSON.stringify(evidence)).not.toContain(token);
    expect(evidence.answer.body).toBe('[ {"vehicleNumber": "V-1"} ]');
  });

  it('takes form credentials from their variables too', (ctx) => {
    skipIf(run, ctx, [], needs());
    const secret = target.env.LP_CLIENT_SECRET!;
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: target.env.LP_CLIENT_ID!,
      client_secret: secret,
    }).toString();
    const evidence = evidenceOf(
      target,
      {
        method: 'POST',
        url: `${target.env.LP_BASE_URL}/token`,
        headers: new Headers({ 'content-type': 'application/x-www-form-urlencoded' }),
        body,
      },
      { status: 200, contentType: 'application/json', body: '{}' },
      [],
      redact,
    );
    expect(evidence.request.body).toBe('grant_type=client_credentials&client_id=$LP_CLIENT_ID&client_secret=$LP_CLIENT_SECRET');
    expect(evidence.curl).toContain(
      '--data-raw "grant_type=client_credentials&client_id=${LP_CLIENT_ID}&client_secret=${LP_CLIENT_SECRET}"',
    );
    expect(evidence.curl).not.toContain(secret);
  });
});
