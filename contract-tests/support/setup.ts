// Runs in every test file: a test fails when any response it received violated the contract, even if its own
// assertions passed, so "every response the suite receives is checked" holds without each test repeating it.
// A contradicted assumption is recorded for the report and fails the test only in strict runs.
// Problems found in a beforeAll hook are reported by the first test that ends after it; a skipped test leaves them
// pending (its failure would not count), and whatever is still pending when the file ends fails the file.
import { relative } from 'node:path';
import { afterAll, afterEach, aroundEach, expect, type TestContext } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { judgeExchange } from '../judge/judge-exchange.ts';
import { promiseOf } from '../judge/promises.ts';
import { freshCode, unattendedApproval } from '../send/authorization.ts';
import { forgetExchanges, onExchange, takeExample } from '../send/fetch.ts';
import { provideValueSources } from '../send/model.ts';
import { ownVehicles } from '../send/own-fleet.ts';
import type { Problems } from '../send/ledger.ts';
import { workerRun } from './worker-run.ts';
import type { LpVariable } from '../send/target.ts';
import { inTest, OUTSIDE_A_TEST, testNameOf } from '../send/test-scope.ts';

// This worker's run (send/run.ts): its target, transport, redactor and ledger, made here from the LP_* settings the
// runner gave the worker, before any check file is loaded.
const run = workerRun();
const { ledger, strictAssumptions, target } = run;

// Every exchange of every check is judged against every promise (judge/exchange-checks.ts).
onExchange(judgeExchange);
// Each check runs as itself: what it sends and finds stays its own when a live run's checks run side by side.
aroundEach((runTest, context) => inTest(testNameOf(context.task), runTest));
// What the model's valid requests need from above it: a fresh code, the key's own fleet.
provideValueSources({ freshCode: (forRun) => freshCode(forRun), ownVehicles, unattendedApproval });

/** Another lessee's vehicle and customer: an accepted answer showing one is what breaks lessee isolation. */
const FOREIGN: LpVariable[] = ['LP_FLEET_FOREIGN_VEHICLE_NUMBER', 'LP_FLEET_FOREIGN_CUSTOMER_NUMBER'];

const failing = ({ violations, contradictions }: Problems) => [
  ...violations,
  ...(strictAssumptions ? contradictions.map((c) => `contradicted assumption (failing: strict run): ${c}`) : []),
];

// The ledger's lines go out as each check and file ends (send/ledger.ts keeps them together in between).
afterEach((context) => {
  try {
    endCheck(context);
  } finally {
    ledger.flush();
  }
});

function endCheck(context: TestContext): void {
  // By the task, not vitest's running test: checks side by side (describe.concurrent) each end with their own.
  const name = testNameOf(context.task);
  ledger.record({ kind: 'check', test: name, state: context.task.result?.state ?? context.task.mode });
  const found = ledger.takeProblems(name);
  // A check's own assertion failed (not a request that could not be judged): the broken promise is the check, shown
  // by the exchange that broke it where the failure tells which (send/fetch.ts, takeExample).
  // The evidence is built only then: a passing check's exchanges are just forgotten.
  const stated = context.task.result?.errors?.find((e) => e.name === 'AssertionError' || e.name === 'CheckFailure');
  if (context.task.result?.state !== 'fail' || !stated) forgetExchanges(name);
  else {
    const message = (stated.message ?? '').split('\n')[0] ?? '';
    const last = takeExample(run, name, { message, shown: FOREIGN.flatMap((v) => (target.env[v] ? [target.env[v]!] : [])) });
    ledger.record({
      kind: 'violation',
      test: name,
      promise: promiseOf(name, 'check', last?.operationId),
      from: 'check',
      message,
      ...(last ? { evidence: last.evidence } : {}),
    });
  }
  if (context.task.result?.state === 'skip' || context.task.mode === 'skip') {
    ledger.reportProblems(found.violations, OUTSIDE_A_TEST);
    ledger.reportContradictions(found.contradictions, OUTSIDE_A_TEST);
    return;
  }
  // A check that fails only because of a contradicted assumption is not a violation: the verdict line counts it apart.
  if (strictAssumptions && found.violations.length === 0 && found.contradictions.length > 0 && context.task.result?.state !== 'fail') {
    ledger.record({ kind: 'strict-failure', test: context.task.name });
  }
  expect(failing(found), 'responses that break the contract').toEqual([]);
}

afterAll(() => {
  try {
    endFile();
  } finally {
    ledger.flush();
  }
});

function endFile(): void {
  const left = ledger.takeProblems();
  // Left by a beforeAll or a skipped check; the file's failure is the reporter's, named by the file's path, and one
  // on contradictions alone (strict runs) is counted with them, not as a violation.
  if (strictAssumptions && left.violations.length === 0 && left.contradictions.length > 0) {
    ledger.record({ kind: 'strict-failure', test: relative(repoRoot, expect.getState().testPath ?? '') });
  }
  expect(failing(left), 'responses received outside a running test (e.g. in beforeAll) that break the contract').toEqual([]);
}
