// Where partners' staging really is, end to end through `contract:live` against the sandbox:
// - behind a gateway that closes idle connections without a word: no false "could not judge";
// - reachable only through a corporate proxy, under a host name no DNS knows, over http and over https (CONNECT): the
//   run passes (the whole contract:live over http; the fleet's files and every workflow over https), the suite and the
//   documented flows as workflows alike (Respect's requests and the approval probe go through the proxy too, the
//   redirect to the loopback LP_REDIRECT_URI direct), and the proxy is handed no request to read;
// - behind its own CA: with NODE_EXTRA_CA_CERTS the run passes; without, it ends "could not judge" after one try per
//   API, naming NODE_EXTRA_CA_CERTS, and never offering to switch the checks off.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { throughProxy } from '../../fixtures/contradicting-proxy.ts';
import { type ForwardProxy, startForwardProxy } from '../../fixtures/forward-proxy.ts';
import { type RealEnvironmentProxy, startRealEnvironmentProxy } from '../../fixtures/real-environment-proxy.ts';
import { makeTestCertificates, type TestCertificates } from '../../fixtures/test-certificates.ts';
import { startSandbox, type TargetServer } from '../../runner/target-server.ts';
import { freePort } from '../../../tools/free-port.ts';
import { EXIT_CODES } from '../../report/verdict-line.ts';
import { skipIf } from '../../support/skips.ts';
import { contractLive, type LiveRun, verdictLine, WHOLE_RUN_TIMEOUT_MS } from '../live-runs.ts';
import { workerRun } from '../../support/worker-run.ts';

const worker = workerRun();
const { target } = worker;

const FLEET_FILES = ['contract-tests/fleet/vehicles.test.ts', 'contract-tests/security/lessee-ownership.test.ts'];
const HOST = 'staging.partner.invalid';
/** What contract:live prints when the suite is done and the workflows begin. */
const WORKFLOWS_BEGIN = 'contract: the documented flows as Arazzo workflows';
const ALL_WORKFLOWS_PASS =
  'workflows verdict: PASS: 4 workflows passed (9 steps), 0 failed (0 steps broke a promise), 0 could not be judged, 0 skipped';
const onlyWithMock = () => (target.name === 'mock' ? undefined : 'a self-test of the suite; it runs with the mock target');

const out = mkdtempSync(join(tmpdir(), 'lp-contract-network-'));
const sandboxes: TargetServer[] = [];
const proxies: Array<RealEnvironmentProxy | ForwardProxy> = [];
let certificates: TestCertificates | undefined;
let forward: ForwardProxy;
let untrusted: RealEnvironmentProxy;
let runs: Record<'idleClosing' | 'unknownCa', LiveRun> | undefined;

/** One contract:live, the suite and then the workflows, through a forward proxy of its own. */
interface ProxiedRun {
  run: LiveRun;
  forward: ForwardProxy;
  /** How many tunnels the proxy had opened when the workflows began (once the suite was done). */
  tunnelsBeforeWorkflows: number | undefined;
}
let proxied: Record<'http' | 'https', ProxiedRun> | undefined;

/** A sandbox's settings with each base URL at `origin` (scheme, host and port) instead. */
const at = (sandbox: TargetServer, origin: string) =>
  throughProxy(sandbox.env as Record<string, string>, new URL(sandbox.env.LP_BASE_URL!).origin, origin);

/** A sandbox of its own: the workflows listen at its redirect URI, a free port no other run of this file shares. */
async function ownSandbox(): Promise<TargetServer> {
  const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
  const sandbox = await startSandbox({ sandboxArgs: ['--log-level', 'silent'], sandboxEnv: { LP_REDIRECT_URI: redirectUri } });
  sandboxes.push(sandbox);
  return sandbox;
}

/** contract:live with the workflows against a sandbox behind a gateway at HOST, reachable only through a forward proxy. */
async function throughForwardProxy(name: string, settings: { tls?: { key: string; cert: string }; ca?: string; wholeSuite?: boolean }) {
  const sandbox = await ownSandbox();
  const gateway = await startRealEnvironmentProxy(new URL(sandbox.env.LP_BASE_URL!).origin, {}, settings.tls ? { tls: settings.tls } : {});
  const proxy = await startForwardProxy({ hosts: { [HOST]: '127.0.0.1' } });
  proxies.push(gateway, proxy);
  const env = {
    ...at(sandbox, gateway.origin.replace('127.0.0.1', HOST)),
    HTTPS_PROXY: proxy.origin,
    HTTP_PROXY: proxy.origin,
    ...(settings.ca ? { NODE_EXTRA_CA_CERTS: settings.ca } : {}),
  };
  let tunnelsBeforeWorkflows: number | undefined;
  const onOutput = (text: string) => {
    if (tunnelsBeforeWorkflows === undefined && text.includes(WORKFLOWS_BEGIN)) tunnelsBeforeWorkflows = proxy.log().tunnels.length;
  };
  // The whole contract:live once (every file of the suite, then the workflows); the fleet's files the other time.
  const run = await contractLive(env, join(out, name), ['--tries', '2'], settings.wholeSuite ? [] : FLEET_FILES, {
    workflows: true,
    onOutput,
    ...(settings.wholeSuite ? { timeoutMs: WHOLE_RUN_TIMEOUT_MS } : {}),
  });
  return { run, forward: proxy, tunnelsBeforeWorkflows };
}

beforeAll(async () => {
  if (onlyWithMock()) return;
  const sandbox = await ownSandbox();
  certificates = makeTestCertificates([HOST]);
  const upstream = new URL(sandbox.env.LP_BASE_URL!).origin;
  // A gateway far stricter than the 1.5 s one partners met: idle connections are closed after 300 ms.
  const idle = await startRealEnvironmentProxy(upstream, { idleCloseMs: 300 });
  const tls = { key: certificates.key, cert: certificates.cert };
  // The run that does not trust the CA has a server of its own: its handshakes are counted apart.
  untrusted = await startRealEnvironmentProxy(upstream, {}, { tls });
  forward = await startForwardProxy({ hosts: { [HOST]: '127.0.0.1' } });
  proxies.push(idle, untrusted, forward);
  const through = { HTTPS_PROXY: forward.origin, HTTP_PROXY: forward.origin };
  const untrustedEnv = { ...at(sandbox, untrusted.origin.replace('127.0.0.1', HOST)), ...through, NODE_EXTRA_CA_CERTS: '' };
  // The suite's files of the fleet (every file's requests take the same way out), then the workflows, which send
  // outside the suite's fetch: Respect's processes and the authorization code flow's approval probe.
  const [idleClosing, http, https, unknownCa] = await Promise.all([
    contractLive(at(sandbox, idle.origin), join(out, 'idle'), [], FLEET_FILES),
    throughForwardProxy('http', { wholeSuite: true }),
    throughForwardProxy('https', { tls, ca: certificates.caFile }),
    contractLive(untrustedEnv, join(out, 'unknown-ca'), ['--tries', '2'], FLEET_FILES),
  ]);
  runs = { idleClosing, unknownCa };
  proxied = { http, https };
}, WHOLE_RUN_TIMEOUT_MS + 30_000);

afterAll(async () => {
  for (const proxy of proxies.reverse()) await proxy.close();
  for (const sandbox of sandboxes) await sandbox.stop();
  certificates?.remove();
  rmSync(out, { recursive: true, force: true });
});

describe('real networks: idle-closing gateways, proxies, private CAs', () => {
  it('behind a gateway that closes idle connections without a word, the run passes: a closed connection is not a verdict', (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    const { idleClosing } = runs!;
    expect(idleClosing.exitCode, idleClosing.output.slice(-4000)).toBe(EXIT_CODES.pass);
    expect(verdictLine(idleClosing)).toMatch(
      /^contract verdict: PASS: 0 violations, 0 contradicted assumptions, 0 checks could not be judged/,
    );
  });

  it('through a proxy that is the only route to the host, over http and over https, the whole run passes, suite and workflows; the proxy reads no request', (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    for (const { run, forward: proxy, tunnelsBeforeWorkflows } of Object.values(proxied!)) {
      expect(run.exitCode, run.output.slice(-4000)).toBe(EXIT_CODES.pass);
      expect(run.output).toMatch(
        new RegExp(
          `preflight: fleet API .* at LP_FLEET_BASE_URL=https?://${HOST}:\\d+/fleet \\(through the proxy ${proxy.origin}\\): answers`,
        ),
      );
      // Every workflow ran and passed: each step reached a host that only the proxy knows.
      expect(run.output.split('\n')).toContain(ALL_WORKFLOWS_PASS);
      const log = proxy.log();
      expect(new Set(log.tunnels.map((tunnel) => tunnel.split(':')[0]))).toEqual(new Set([HOST]));
      expect(log.forwarded).toEqual([]);
      // Nothing refused: the redirect to the loopback LP_REDIRECT_URI went direct, as a proxy cannot reach it.
      expect(log.refused).toEqual([]);
      // Respect's processes (one per workflow, each on connections of its own) opened tunnels after the suite was done.
      expect(tunnelsBeforeWorkflows).toBeDefined();
      expect(log.tunnels.length).toBeGreaterThan(tunnelsBeforeWorkflows!);
    }
  });

  it('a CA Node does not know: could not judge after one try per API, NODE_EXTRA_CA_CERTS named, no check run', (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    const { unknownCa } = runs!;
    expect(unknownCa.exitCode, unknownCa.output.slice(-4000)).toBe(EXIT_CODES.couldNotJudge);
    const lines = unknownCa.output.split('\n').filter((line) => line.startsWith('contract: preflight: '));
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).toMatch(/could not be reached over TLS: .* is not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/);
      expect(line).toContain('NODE_EXTRA_CA_CERTS=/path/to/ca.pem');
      expect(line).toContain('(tried once: no second try mends TLS)');
    }
    expect(unknownCa.output).not.toMatch(/insecure|NODE_TLS_REJECT_UNAUTHORIZED|rejectUnauthorized/i);
    // One handshake per API, each broken off by the client; nothing got through.
    expect(untrusted.stats()).toMatchObject({ handshakes: 0, tlsRefused: 3, requests: 0 });
    expect(verdictLine(unknownCa)).toMatch(/^contract verdict: COULD NOT JUDGE/);
  });
});
