// The generated Postman collection as a partner meets it: the files as written, and newman (Postman's runner) running
// them against a real sandbox, green with the sandbox environment and red where a credential is wrong.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecordingProxy } from '../client/loopback-server.ts';
import { loadBundles } from '../../spec-core/bundles.ts';
import { operationsOf } from '../../spec-core/operations.ts';
import {
  COLLECTION_FILE,
  ENVIRONMENT_FILES,
  POSTMAN_DOWNLOADS,
  requestsOf,
  SANDBOX_DEFAULT_ORIGIN,
  SANDBOX_ORIGIN_VARIABLE,
  variablesUsed,
  writePostmanCollection,
} from '../../tools/postman/build-collection.ts';
import { runCollection, type NewmanSummary } from '../../tools/postman/newman.ts';
import { FLOWS_FOLDER, STEP_BEFORE_TEST } from '../../tools/postman/workflow-folders.ts';
import { criteriaTests } from '../../tools/postman/criteria.ts';
import { loadWorkflows } from '../../spec-core/workflows.ts';
import { API_NAMES, repoRoot } from '../../spec-core/apis.ts';
import {
  TOKEN_EXPIRY_VARIABLE,
  TOKEN_FAILURE_TEST,
  TOKEN_RENEW_MARGIN_SECONDS,
  TOKEN_VARIABLE,
  tokenPreRequestScript,
} from '../../tools/postman/scripts.ts';
import { type RunningServer, stopAllServers } from '../../tools/processes.ts';
import { start } from '../../tools/server-load.ts';

const outDir = mkdtempSync(join(tmpdir(), 'lp-postman-'));
const read = (name: string) => JSON.parse(readFileSync(join(outDir, name), 'utf8'));
const envValue = (environment: { values: { key: string; value: string }[] }, key: string) =>
  environment.values.find((v) => v.key === key)?.value;
const operationCount = Object.values(loadBundles()).reduce((sum, bundle) => sum + operationsOf(bundle).length, 0);
const workflows = loadWorkflows();
const stepCount = workflows.reduce((sum, workflow) => sum + workflow.steps.length, 0);
/** The collection's folders: one per API, then the Flows folder. */
const apiItems = () => requestsOf(read(COLLECTION_FILE).item.slice(0, API_NAMES.length));
const flowsFolderOf = () => read(COLLECTION_FILE).item.at(-1);

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

  it('have one request per operation in the folders of the APIs', () => {
    expect(apiItems()).toHaveLength(operationCount);
  });

  it('have a Flows folder last, with one folder per Arazzo workflow in the order of the docs and one numbered request per step', () => {
    const flows = flowsFolderOf();
    expect(flows.name).toBe(FLOWS_FOLDER);
    expect(flows.item.map((folder: { name: string }) => folder.name)).toEqual(workflows.map((w) => w.title));
    for (const [index, workflow] of workflows.entries()) {
      const names = flows.item[index].item.map((item: { name: string }) => item.name);
      expect(
        names.map((name: string) => Number(name.split('.')[0])),
        workflow.workflowId,
      ).toEqual(workflow.steps.map((_step, i) => i + 1));
      expect(flows.item[index].item.map((item: { request: { description: string } }) => item.request.description)).toEqual(
        workflow.steps.map((step) => step.description),
      );
    }
    // What a step keeps for the next is the collection's own variable, never an environment's.
    expect(read(COLLECTION_FILE).variable.map((v: { key: string }) => v.key)).toContain('wf_access_token');
    expect(variablesUsed(read(COLLECTION_FILE)).filter((name) => name.startsWith('wf_'))).toEqual([]);
  });

  it('define every variable the collection uses in both environments, and no other (the sandbox: its origin too)', () => {
    const used = variablesUsed(read(COLLECTION_FILE));
    expect(used).toContain('fleet_api_key');
    const keys = (name: string) =>
      read(name)
        .values.map((v: { key: string }) => v.key)
        .sort();
    expect(keys(ENVIRONMENT_FILES.live)).toEqual(used);
    expect(keys(ENVIRONMENT_FILES.sandbox)).toEqual([...used, SANDBOX_ORIGIN_VARIABLE].sort());
  });

  it('switch no query filter on', () => {
    const list = requestsOf(read(COLLECTION_FILE).item).find((r) => r.request.url.path.join('/') === 'vehicles')!;
    expect(list.request.url.query.length).toBeGreaterThan(0);
    expect(list.request.url.query.filter((q: { disabled: boolean }) => !q.disabled)).toEqual([]);
  });

  it("point the sandbox environment at the sandbox's default port (sandbox/README.md)", () => {
    const port = new URL(SANDBOX_DEFAULT_ORIGIN).port;
    expect(readFileSync(join(repoRoot, 'sandbox/README.md'), 'utf8')).toMatch(new RegExp(`npm run sandbox +# port ${port}\\b`));
    expect(envValue(read(ENVIRONMENT_FILES.sandbox), SANDBOX_ORIGIN_VARIABLE)).toBe(SANDBOX_DEFAULT_ORIGIN);
  });

  it("name the sandbox's origin once in the sandbox environment: the three base URLs are built from it", () => {
    const sandbox = read(ENVIRONMENT_FILES.sandbox);
    const port = new URL(SANDBOX_DEFAULT_ORIGIN).port;
    // A sandbox on another port is one value to change.
    expect(sandbox.values.filter((v: { value: string }) => v.value.includes(`:${port}`)).map((v: { key: string }) => v.key)).toEqual([
      SANDBOX_ORIGIN_VARIABLE,
    ]);
    expect(Object.fromEntries(['base_url', 'auth_url', 'fleet_base_url'].map((key) => [key, envValue(sandbox, key)]))).toEqual({
      base_url: `{{${SANDBOX_ORIGIN_VARIABLE}}}/svc`,
      auth_url: `{{${SANDBOX_ORIGIN_VARIABLE}}}/idp`,
      fleet_base_url: `{{${SANDBOX_ORIGIN_VARIABLE}}}/fleet`,
    });
    // The live environment has the three addresses to fill in, and no origin of a sandbox.
    expect(read(ENVIRONMENT_FILES.live).values.map((v: { key: string }) => v.key)).not.toContain(SANDBOX_ORIGIN_VARIABLE);
  });
});

describe('the token pre-request script, run on its own', () => {
  /** Runs the script with a stub of Postman's `pm` whose token request gets `answer`; returns what the script did. */
  function runTokenScript(answer: { error?: Error; code?: number; status?: string; text?: string }) {
    const environment = new Map<string, string>();
    const variables: Record<string, string> = {
      client_id: 'client-1',
      client_secret: 'secret-of-the-partner',
      subscription_key: 'key-of-the-partner',
    };
    const tests: { name: string; error?: string }[] = [];
    const logged: string[] = [];
    let skipped = false;
    const pm = {
      environment: { get: (key: string) => environment.get(key), set: (key: string, value: string) => environment.set(key, value) },
      variables: {
        get: (key: string) => variables[key],
        replaceIn: (text: string) => text.replace('{{base_url}}', 'http://127.0.0.1:1/svc'),
      },
      sendRequest: (_request: unknown, callback: (error: Error | null, response?: unknown) => void) =>
        callback(answer.error ?? null, {
          code: answer.code,
          status: answer.status,
          text: () => answer.text ?? '',
          json: () => JSON.parse(answer.text ?? ''),
        }),
      test: (name: string, run: () => void) => {
        try {
          run();
          tests.push({ name });
        } catch (error) {
          tests.push({ name, error: (error as Error).message });
        }
      },
      execution: { skipRequest: () => (skipped = true) },
    };
    new Function('pm', 'console', tokenPreRequestScript().join('\n'))(pm, { error: (line: string) => logged.push(line) });
    return { environment, tests, logged, skipped };
  }

  it('fails and skips the request with the status and the start of the body, credentials masked', () => {
    const body = JSON.stringify({
      error: 'invalid_client',
      echo: 'secret-of-the-partner',
      key: 'key-of-the-partner',
      pad: 'x'.repeat(400),
    });
    const run = runTokenScript({ code: 401, status: 'Unauthorized', text: body });
    expect(run.skipped).toBe(true);
    expect(run.tests.map((test) => test.name)).toEqual([TOKEN_FAILURE_TEST]);
    const message = run.tests[0]!.error!;
    expect(message).toMatch(/^No bearer token from http:\/\/127\.0\.0\.1:1\/svc\/token: 401 Unauthorized: \{"error":"invalid_client"/);
    expect(message).toContain('"echo":"***","key":"***"');
    expect(message).not.toContain('of-the-partner');
    expect(message).toMatch(/x{10}\.\.\.; the request was not sent\.$/); // the body cut short
    expect(run.logged).toEqual([message]);
    expect(run.environment.get(TOKEN_VARIABLE)).toBe('');
  });

  it('names a transport error, and a 200 without a token, the same way', () => {
    const refused = runTokenScript({ error: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    expect(refused.skipped).toBe(true);
    expect(refused.tests[0]!.error).toBe(
      'No bearer token from http://127.0.0.1:1/svc/token: connect ECONNREFUSED 127.0.0.1:1; the request was not sent.',
    );
    const empty = runTokenScript({ code: 200, status: 'OK', text: '<html>login</html>' });
    expect(empty.skipped).toBe(true);
    expect(empty.tests[0]!.error).toContain(': 200 OK (no access_token and expired_in): <html>login</html>;');
  });

  it('caches a token and lets the request go', () => {
    const run = runTokenScript({ code: 200, status: 'OK', text: JSON.stringify({ access_token: 'a-token', expired_in: 3600 }) });
    expect(run.skipped).toBe(false);
    expect(run.tests).toEqual([]);
    expect(run.environment.get(TOKEN_VARIABLE)).toBe('a-token');
  });
});

/** The sandbox started here: a free port, never the default 4020. */
const sandboxOrigin = () => new URL(sandbox.env.LP_BASE_URL!).origin;

/**
 * Runs the written collection with the sandbox environment, moved to the sandbox started here (or `origin`) the way a
 * partner moves it to a sandbox on another port: one value, the sandbox's origin.
 */
const runAgainstSandbox = (overrides: Record<string, string> = {}, iterationCount = 1, origin = sandboxOrigin()) =>
  runCollection({
    collection: read(COLLECTION_FILE),
    environment: read(ENVIRONMENT_FILES.sandbox),
    overrides: { [SANDBOX_ORIGIN_VARIABLE]: origin, ...overrides },
    iterationCount,
  });

const failedRequests = (summary: NewmanSummary) => [...new Set(summary.run.failures.map((failure) => failure.source?.name))].sort();

describe('newman against the sandbox', () => {
  it('runs every request green twice against a sandbox on another port (one value changed), fetching the bearer token once and caching it for its expired_in', async () => {
    expect(new URL(sandboxOrigin()).port).not.toBe(new URL(SANDBOX_DEFAULT_ORIGIN).port);
    const startedAt = Date.now();
    const summary = await runAgainstSandbox({}, 2);
    expect(failedRequests(summary)).toEqual([]);
    expect(summary.run.stats.assertions.failed).toBe(0);
    expect(summary.run.stats.assertions.total).toBeGreaterThanOrEqual(2 * 2 * (operationCount + stepCount));
    // Every request of both iterations (the flows' steps too), plus one token fetch: the second iteration used the
    // cached token, and the flows get theirs in their own first step.
    expect(summary.run.stats.requests.total).toBe(2 * (operationCount + stepCount) + 1);
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
    const all = [...new Set(requestsOf(read(COLLECTION_FILE).item).map((r) => r.name))];
    // Only the authorize redirect takes none of these credentials (in its API's folder and as a flow's first step); a
    // flow's later steps fail unsent, their step before having kept nothing.
    expect(failedRequests(summary)).toEqual(all.filter((name) => !name.endsWith('Start the authorization code grant')).sort());
    expect(summary.run.failures.map((failure) => failure.error?.test)).toContain('status is the documented success (200)');
  });

  it("fails each request that needs a bearer token with the token endpoint's answer when the token fetch fails, and sends none of them", async () => {
    const recorder = await startRecordingProxy(sandboxOrigin());
    const wrongSecret = 'wrong-client-secret-7f3a';
    let summary: NewmanSummary;
    try {
      summary = await runAgainstSandbox({ client_secret: wrongSecret }, 1, recorder.origin);
    } finally {
      await recorder.close();
    }
    const tokenUrl = `${recorder.origin}/svc/token`;
    const bearerItems = apiItems().filter((item) => item.request.auth?.type === 'bearer');
    // The flows' steps that send the token their first step was to get: not sent either.
    const flowSteps = requestsOf(flowsFolderOf().item);
    const tokenSteps = flowSteps.filter((item) => JSON.stringify(item.request).includes('{{wf_access_token}}'));
    expect(tokenSteps.length).toBe(3);
    expect(bearerItems.length).toBeGreaterThan(0);
    // Each of them failed on the token, with the endpoint's status and the start of its body; besides them only the
    // requests that send the client secret themselves (the two token requests) failed, on their status.
    const sendingTheSecret = requestsOf(read(COLLECTION_FILE).item).filter((item) =>
      JSON.stringify(item.request).includes('{{client_secret}}'),
    );
    expect(sendingTheSecret.length).toBeGreaterThan(0);
    expect(failedRequests(summary)).toEqual(
      [...new Set([...bearerItems, ...sendingTheSecret, ...tokenSteps].map((item) => item.name))].sort(),
    );
    for (const item of tokenSteps) {
      const failures = summary.run.failures.filter((failure) => failure.source?.id === item.id);
      expect(
        failures.map((failure) => failure.error?.test),
        item.name,
      ).toEqual([STEP_BEFORE_TEST]);
      expect(failures[0]!.error!.message).toBe('not sent: no wf_access_token from the step before it');
    }
    for (const item of bearerItems) {
      const failures = summary.run.failures.filter((failure) => failure.source?.name === item.name);
      expect(
        failures.map((failure) => failure.error?.test),
        item.name,
      ).toEqual([TOKEN_FAILURE_TEST]);
      const message = failures[0]!.error!.message!;
      expect(message).toContain(`No bearer token from ${tokenUrl}: 401`);
      expect(message).toContain('invalid_client');
      expect(message).toContain('the request was not sent');
      expect(message).not.toContain(wrongSecret);
    }
    // What reached the sandbox: token requests, and none of the requests that need the token (with an empty bearer or
    // none at all); the others went out as usual.
    const bearerPaths = bearerItems.map((item) => `/${item.request.url.path.join('/')}`);
    const sent = recorder.requests.map((r) => r.url.split('?')[0]!);
    expect(sent.filter((path) => bearerPaths.some((bearerPath) => path.endsWith(bearerPath)))).toEqual([]);
    expect(sent.filter((path) => path === '/svc/token').length).toBeGreaterThanOrEqual(bearerItems.length);
    expect(sent.length).toBeGreaterThan(bearerItems.length); // the requests that need no token went out
    expect(recorder.requests.filter((r) => r.headers.authorization !== undefined && /^Bearer\s*$/i.test(r.headers.authorization))).toEqual(
      [],
    );
  });
});

describe('the flows folders', () => {
  it("test each step's success criteria: a sandbox whose service token names expires_in fails the service token flow on them", async () => {
    const mutated = await start(
      'sandbox/main.ts',
      ['--port', '0', '--log-level', 'silent', '--mutation', 'service-token-expires-in'],
      'sandbox ready',
    );
    let summary: NewmanSummary;
    try {
      summary = await runAgainstSandbox({}, 1, new URL(mutated.env.LP_BASE_URL!).origin);
    } finally {
      await mutated.stop();
    }
    const [serviceTokenFlow] = flowsFolderOf().item;
    const [tokenStep, milestoneStep] = serviceTokenFlow.item;
    const testsFailed = (id: string) =>
      summary.run.failures.filter((failure) => failure.source?.id === id).map((failure) => failure.error?.test);
    expect(testsFailed(tokenStep.id)).toEqual(['$response.body#/expired_in == 3600', '$[?!@.expires_in]']);
    // The token itself came back, so the milestone was recorded with it.
    expect(testsFailed(milestoneStep.id)).toEqual([]);
  });

  it('refuse a criterion of a shape they cannot test, naming it', () => {
    expect(() => criteriaTests([{ context: '$response.body', type: 'jsonpath', condition: '$[?@.expired_in > 60]' }])).toThrow(
      'no Postman test for the JSONPath condition "$[?@.expired_in > 60]"',
    );
    expect(() => criteriaTests([{ condition: '$response.header.Location != null' }])).toThrow(
      'no Postman test for the operand "$response.header.Location"',
    );
  });
});
