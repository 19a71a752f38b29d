// The generated Postman collection as a partner meets it: the files as written, and newman (Postman's runner) running
// them against a real sandbox, green with the sandbox environment and red where a credential is wrong.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { loadBundles } from '../../spec-core/bundles.ts';
import { operationsOf } from '../../spec-core/operations.ts';
import {
  COLLECTION_FILE,
  ENVIRONMENT_FILES,
  POSTMAN_DOWNLOADS,
  requestsOf,
  SANDBOX_DEFAULT_ORIGIN,
  variablesUsed,
  writePostmanCollection,
} from '../../tools/postman/build-collection.ts';
import { runCollection, type NewmanSummary } from '../../tools/postman/newman.ts';
import { TOKEN_EXPIRY_VARIABLE, TOKEN_RENEW_MARGIN_SECONDS } from '../../tools/postman/scripts.ts';
import { type RunningServer, stopAllServers } from '../../tools/processes.ts';
import { start } from '../../tools/server-load.ts';

const outDir = mkdtempSync(join(tmpdir(), 'lp-postman-'));
const read = (name: string) => JSON.parse(readFileSync(join(outDir, name), 'utf8'));
const operationCount = Object.values(loadBundles()).reduce((sum, bundle) => sum + operationsOf(bundle).length, 0);

let files: string[] = [];
let sandbox: RunningServer;
beforeAll(async () => {
  [files, sandbox] = await Promise.all([
    writePostmanCollection(outDir),
    start('sandbox/main.ts', ['--port', '0', '--log-level', 'silent'], 'sandbox ready'),
  ]);
});
afterAll(async () => {
  await stopAllServers();
  rmSync(outDir, { recursive: true, force: true });
});

describe('the files', () => {
  it('are a v2.1 collection and two environments, named as Postman names them', () => {
    expect(files.map((file) => file.slice(outDir.length + 1))).toEqual([
      COLLECTION_FILE,
      ENVIRONMENT_FILES.sandbox,
      ENVIRONMENT_FILES.live,
    ]);
    expect(POSTMAN_DOWNLOADS.map((link) => link.href)).toEqual(files.map((file) => `postman/${file.slice(outDir.length + 1)}`));
    expect(read(COLLECTION_FILE).info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    for (const name of Object.values(ENVIRONMENT_FILES)) expect(read(name)._postman_variable_scope).toBe('environment');
  });

  it('have one request per operation', () => {
    expect(requestsOf(read(COLLECTION_FILE).item)).toHaveLength(operationCount);
  });

  it('define every variable the collection uses in both environments, and no other', () => {
    const used = variablesUsed(read(COLLECTION_FILE));
    expect(used).toContain('fleet_api_key');
    for (const name of Object.values(ENVIRONMENT_FILES)) {
      expect(
        read(name)
          .values.map((v: { key: string }) => v.key)
          .sort(),
        name,
      ).toEqual(used);
    }
  });

  it('switch no query filter on', () => {
    const list = requestsOf(read(COLLECTION_FILE).item).find((r) => r.request.url.path.join('/') === 'vehicles')!;
    expect(list.request.url.query.length).toBeGreaterThan(0);
    expect(list.request.url.query.filter((q: { disabled: boolean }) => !q.disabled)).toEqual([]);
  });

  it("point the sandbox environment at the sandbox's default port (sandbox/README.md)", () => {
    const port = new URL(SANDBOX_DEFAULT_ORIGIN).port;
    expect(readFileSync(join(repoRoot, 'sandbox/README.md'), 'utf8')).toMatch(new RegExp(`npm run sandbox +# port ${port}\\b`));
    expect(read(ENVIRONMENT_FILES.sandbox).values.find((v: { key: string }) => v.key === 'base_url').value).toBe(
      `${SANDBOX_DEFAULT_ORIGIN}/svc`,
    );
  });
});

/** Runs the written collection with the sandbox environment, its addresses moved to the sandbox started here. */
const runAgainstSandbox = (overrides: Record<string, string> = {}, iterationCount = 1) =>
  runCollection({
    collection: read(COLLECTION_FILE),
    environment: read(ENVIRONMENT_FILES.sandbox),
    overrides: {
      base_url: sandbox.env.LP_BASE_URL!,
      auth_url: sandbox.env.LP_AUTH_URL!,
      fleet_base_url: sandbox.env.LP_FLEET_BASE_URL!,
      ...overrides,
    },
    iterationCount,
  });

const failedRequests = (summary: NewmanSummary) => [...new Set(summary.run.failures.map((failure) => failure.source?.name))].sort();

describe('newman against the sandbox', () => {
  it('runs every request green twice, fetching the bearer token once and caching it for its expired_in', async () => {
    const startedAt = Date.now();
    const summary = await runAgainstSandbox({}, 2);
    expect(failedRequests(summary)).toEqual([]);
    expect(summary.run.stats.assertions.failed).toBe(0);
    expect(summary.run.stats.assertions.total).toBeGreaterThanOrEqual(2 * 2 * operationCount);
    // Every request of both iterations, plus one token fetch: the second iteration used the cached token.
    expect(summary.run.stats.requests.total).toBe(2 * operationCount + 1);
    // The cache lasts the service's expired_in (3600 s) less the renewal margin, from the moment of the fetch.
    const endedAt = Date.now();
    const expiresAt = Number(summary.environment.values.one(TOKEN_EXPIRY_VARIABLE)?.value);
    const lifetime = (3600 - TOKEN_RENEW_MARGIN_SECONDS) * 1000;
    expect(expiresAt).toBeGreaterThanOrEqual(startedAt + lifetime);
    expect(expiresAt).toBeLessThanOrEqual(endedAt + lifetime);
  });

  it('fails the documented-status tests of every request whose credential is wrong', async () => {
    const summary = await runAgainstSandbox({
      client_secret: 'wrong-secret',
      subscription_key: 'wrong-key',
      fleet_api_key: 'wrong-fleet-key',
    });
    const all = requestsOf(read(COLLECTION_FILE).item).map((r) => r.name);
    // Only the authorize redirect takes none of these credentials.
    expect(failedRequests(summary)).toEqual(all.filter((name) => name !== 'Start the authorization code grant').sort());
    expect(summary.run.failures.map((failure) => failure.error?.test)).toContain('status is the documented success (200)');
  });
});
