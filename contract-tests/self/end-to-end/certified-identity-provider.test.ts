// A red that holds on a server nobody here wrote: `contract:live`, the suite and the workflows, against an
// OpenID-certified authorization server (panva's oidc-provider) as the identity provider, behind a gateway that asks
// for the subscription key on token requests (published documentation 4.2), with the sandbox for the other APIs
// (contract-tests/fixtures/certified-identity-provider.ts). Two configurations a partner might have: PKCE optional and
// PKCE required, both answering with RFC 9207's iss. The server keeps the documentation but for one thing the
// documentation asks beyond the RFC (scope on client credentials): that is the only violation, labelled as the
// documentation's own; its relative Location to the login page, its missing Pragma and the login page itself are no
// violation, and every check that needs an approved code skips, saying a person has to sign in.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CertifiedIdentityProvider, startCertifiedIdentityProvider } from '../../fixtures/certified-identity-provider.ts';
import { readLedger } from '../../report/run-files.ts';
import type { RunReport } from '../../report/report-model.ts';
import { EXIT_CODES } from '../../report/verdict-line.ts';
import { startSandbox, type TargetServer } from '../../runner/target-server.ts';
import { skipIf } from '../../support/skips.ts';
import { contractLive, type LiveRun, verdictLine, WHOLE_RUN_TIMEOUT_MS } from '../live-runs.ts';
import { workerRun } from '../../support/worker-run.ts';

const worker = workerRun();
const { target } = worker;

const CONFIGURATIONS = ['optional', 'required'] as const;
type Pkce = (typeof CONFIGURATIONS)[number];
const onlyWithMock = () => (target.name === 'mock' ? undefined : 'a self-test of the suite; it runs with the mock target');

const out = mkdtempSync(join(tmpdir(), 'lp-contract-certified-'));
let sandbox: TargetServer | undefined;
const providers: CertifiedIdentityProvider[] = [];
const runs = new Map<Pkce, { run: LiveRun; report: RunReport; provider: CertifiedIdentityProvider }>();

beforeAll(
  async () => {
    if (onlyWithMock()) return;
    sandbox = await startSandbox();
    for (const pkce of CONFIGURATIONS)
      providers.push(await startCertifiedIdentityProvider(sandbox.env as Record<string, string>, { pkce }));
    const results = await Promise.all(
      CONFIGURATIONS.map((pkce, i) =>
        contractLive(providers[i]!.env, join(out, pkce), [], [], { workflows: true, timeoutMs: WHOLE_RUN_TIMEOUT_MS }),
      ),
    );
    CONFIGURATIONS.forEach((pkce, i) => {
      const report = JSON.parse(readFileSync(join(out, pkce, 'report.json'), 'utf8')) as RunReport;
      runs.set(pkce, { run: results[i]!, report, provider: providers[i]! });
    });
  },
  2 * WHOLE_RUN_TIMEOUT_MS + 60_000,
);

afterAll(async () => {
  for (const provider of providers) await provider.close();
  await sandbox?.stop();
  rmSync(out, { recursive: true, force: true });
});

describe.for(CONFIGURATIONS)('a certified authorization server as the identity provider, PKCE %s', (pkce) => {
  it('redirects errors with RFC 9207 iss, and sends a user who must sign in to its own page with a relative Location', async (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    const { env } = runs.get(pkce)!.provider;
    const authorize = (query: Record<string, string>) =>
      fetch(`${env.LP_AUTH_URL}/oauth2/default/v1/authorize?${new URLSearchParams(query)}`, { redirect: 'manual' });
    const base = { client_id: env.LP_CLIENT_ID!, redirect_uri: env.LP_REDIRECT_URI!, scope: env.LP_SCOPE!, state: 's1' };
    const refused = new URL((await authorize({ ...base, response_type: 'none-such' })).headers.get('location')!);
    expect(`${refused.origin}${refused.pathname}`).toBe(env.LP_REDIRECT_URI);
    expect(new URLSearchParams(refused.search || refused.hash.slice(1)).get('iss')).toBe(env.LP_AUTH_URL);
    const pkceQuery = { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' };
    const signIn = await authorize({ ...base, response_type: 'code', ...pkceQuery });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get('location')).toMatch(/^\/idp\/interaction\//);
  });

  it('no violation but the one the published documentation asks beyond the RFC, labelled as its own', (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    const { run, report } = runs.get(pkce)!;
    expect(report.counts.unjudged, run.output.slice(-3000)).toBe(0);
    expect(report.violations.length, run.output.slice(-3000)).toBeGreaterThan(0);
    for (const group of report.violations) {
      expect(group.promise, group.messages.join('\n')).toMatch(/^Published documentation, section 4\.2 /);
      expect(group.promise).toMatch(/own requirement|RFC 6749 alone would allow/);
    }
    // It is the seed's scope rule and nothing else: the exit code says violation, and only that.
    expect(run.exitCode).toBe(EXIT_CODES.fail);
    expect(verdictLine(run)).toMatch(
      /^contract verdict: FAIL: \d+ violations \(2 broken promises\), \d+ contradicted assumptions, 0 checks could not be judged/,
    );
  });

  it('what keeps the documentation is no violation: a relative Location, no Pragma, a login page, a NUL-padded secret noted', (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    const { run } = runs.get(pkce)!;
    expect(run.output).not.toMatch(/must match format "uri"|required header Pragma is missing/);
    expect(run.output).toMatch(/no Pragma: no-cache: RFC 6749 5\.1 writes it as a MUST, but RFC 9111 5\.4 deprecates Pragma/);
  });

  it('every check that needs an approved code skips, saying a person has to sign in; so does the code-grant workflow', (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    const { run, report } = runs.get(pkce)!;
    const skips = readLedger(join(out, pkce, '.ledger')).flatMap((e) => (e.kind === 'skip' ? [e] : []));
    const codeChecks = skips.filter((e) =>
      /redirects to the registered redirect_uri with a code|authorization_code\): left out|exchanges a code once/.test(e.test),
    );
    expect(codeChecks.length, run.output.slice(-3000)).toBe(3);
    for (const skip of codeChecks) expect(skip.reason, skip.test).toMatch(/a person has to sign in/);
    expect(report.workflows?.exitCode, run.output.slice(-3000)).toBe(EXIT_CODES.pass);
    const codeFlow = report.workflows?.workflows.find((w) => w.workflowId === 'recordMilestoneWithAuthorizationCode');
    expect(codeFlow?.outcome).toBe('skipped');
    expect(codeFlow?.reason ?? '').toMatch(/sign in/);
    expect(run.output).not.toMatch(/AuthorizationError/);
  });
});
