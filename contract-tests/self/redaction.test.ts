// The suite's own guarantee: credentials never reach its output or its report files. Runs on every target, against
// a loopback server that echoes credentials back, so the check does not depend on the target behaving.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redactor, REDACTED } from '../send/redact.ts';
import { runSettingsOf } from '../send/run-settings.ts';
import { runSuite } from '../runner/run-suite.ts';
import { skipIf } from '../support/skips.ts';
import { testWaitMs } from '../../config/test-waits.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
const { target } = run;

const SECRET = 'contract-self-secret-Zx81/+&=';
const KEY = 'contract-self-subscription-key-6f3a';
const FLEET_KEY = 'contract-self-fleet-key-41bd';
const ISSUED = 'eyJhbGciOiJIUzI1NiJ9.contract-self-issued-token.c2ln';

const unicodeEscaped = (value: string) => [...value].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** The spellings of a credential that a report or log must not contain. */
function spellingsOf(credential: string): Record<string, string> {
  const json = JSON.stringify(credential).slice(1, -1);
  return {
    raw: credential,
    'URL-encoded': encodeURIComponent(credential),
    'form-encoded': new URLSearchParams({ v: credential }).toString().slice(2),
    'JSON with \\/': json.replaceAll('/', '\\/'),
    'JSON with \\u002f': json.replaceAll('/', '\\u002f'),
    '\\u-escaped': unicodeEscaped(credential),
    base64: Buffer.from(credential).toString('base64'),
    base64url: Buffer.from(credential).toString('base64url'),
    hex: Buffer.from(credential).toString('hex'),
    'hex, upper case': Buffer.from(credential).toString('hex').toUpperCase(),
  };
}

describe('redaction of credentials', () => {
  it('redacts configured secrets, their URL and form encodings, and long bearer tokens', () => {
    const redactor = new Redactor([SECRET, KEY]);
    const text = `secret=${SECRET} form=${new URLSearchParams({ s: SECRET })} url=${encodeURIComponent(SECRET)} key=${KEY} Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123`;
    const clean = redactor.redact(text);
    for (const leaked of [
      SECRET,
      encodeURIComponent(SECRET),
      new URLSearchParams({ s: SECRET }).toString().slice(2),
      KEY,
      'abcdefghijklmnopqrstuvwxyz0123',
    ]) {
      expect(clean.includes(leaked), `still contains a form of a credential`).toBe(false);
    }
    expect(clean).toContain(REDACTED);
    // Ordinary words survive, including "Bearer token" in a test name.
    expect(redactor.redact('issues a Bearer token')).toBe('issues a Bearer token');
  });

  describe('a whole run against a server that echoes credentials', () => {
    let server: Server;
    let baseUrl = '';
    const out = mkdtempSync(join(tmpdir(), 'lp-contract-self-'));

    beforeAll(async () => {
      // Echoes every request (headers and body) into a 500 answer, which the suite reports as a failure: the worst case.
      server = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          // The credentials also echoed in base64, hex and \u escapes, first (reports keep only the start of a body):
          // the spellings a server or a gateway may use when it logs or reflects a request.
          const form = new URLSearchParams(body);
          const credentials = [
            request.headers.authorization?.replace(/^Bearer /, ''),
            request.headers['api-key'],
            request.headers['ocp-apim-subscription-key'],
            form.get('client_secret'),
          ];
          const spellings = credentials
            .filter((v): v is string => typeof v === 'string')
            .flatMap((v) => [
              Buffer.from(v).toString('base64'),
              Buffer.from(v).toString('base64url'),
              Buffer.from(v).toString('hex'),
              unicodeEscaped(v),
            ]);
          const echo = JSON.stringify({ spellings, headers: request.headers, body, url: request.url });
          const isToken = request.url?.endsWith('/token');
          response.writeHead(isToken ? 200 : 500, { 'content-type': 'application/json' });
          response.end(isToken ? JSON.stringify({ access_token: ISSUED, token_type: 'Bearer', expired_in: 'echo', echo }) : echo);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
      rmSync(out, { recursive: true, force: true });
    });

    it(
      'prints and writes no credential, though the run fails',
      async (ctx) => {
        // It tests the suite, not the target: once per `npm test` (the mock run) is enough.
        skipIf(run, ctx, [], target.name === 'mock' ? undefined : 'a self-test of the suite; it runs with the mock target');
        // The token, fleet and carriers checks send every kind of credential.
        const result = await runSuite({
          settings: runSettingsOf({
            LP_CONTRACT_TARGET: 'live',
            LP_CONTRACT_OUT: out,
            LP_BASE_URL: baseUrl,
            LP_AUTH_URL: baseUrl,
            LP_FLEET_BASE_URL: baseUrl,
            LP_CLIENT_ID: 'contract-self-client',
            LP_CLIENT_SECRET: SECRET,
            LP_SUBSCRIPTION_KEY: KEY,
            LP_SCOPE: 'carriers.milestones',
            LP_FLEET_API_KEY: FLEET_KEY,
            LP_REDIRECT_URI: 'http://127.0.0.1:9/cb',
          }),
          vitestArgs: [
            'contract-tests/token/service-token.test.ts',
            'contract-tests/security/auth-matrix.fleet.test.ts',
            'contract-tests/carriers',
          ],
        });
        expect(result.exitCode, 'the echoing server fails the run').not.toBe(0);
        const files = readdirSync(out)
          .filter((f) => /\.(json|md|xml)$/.test(f))
          .map((f) => readFileSync(join(out, f), 'utf8'));
        expect(files.length, 'reports were written').toBeGreaterThanOrEqual(3);
        for (const [where, text] of [['output', result.output], ...files.map((t, i) => [`file ${i}`, t] as const)] as const) {
          for (const credential of [SECRET, KEY, FLEET_KEY, ISSUED]) {
            for (const [encoding, spelled] of Object.entries(spellingsOf(credential))) {
              expect(text.includes(spelled), `${where} contains a credential (${encoding})`).toBe(false);
            }
          }
        }
      },
      testWaitMs(120_000),
    );
  });
});
