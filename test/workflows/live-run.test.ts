// `npm run contract:live` runs the documented flows as Arazzo workflows after the suite, and the run's reports list
// them in their own section. Against a sandbox whose get-one answer lacks a field (a fact of the fleet lookup
// workflow) and with only a token file of the suite, which cannot see it: the suite passes, the workflow fails, and
// the run fails; the console, summary.md, report.html and report.json say so, with no configured secret in any of them.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SECRET_VARIABLES } from '../../config/environment.ts';
import type { RunReport } from '../../contract-tests/report/report-model.ts';
import { combinedExitCode } from '../../contract-tests/runner/contract-run.ts';
import { contractLive, LIVE_RUN_TIMEOUT_MS } from '../../contract-tests/self/live-runs.ts';
import { expectNoSecrets } from '../../contract-tests/self/report-browser.ts';
import { freePort } from '../../tools/free-port.ts';
import { startSandbox, type TargetServer } from '../../tools/targets.ts';

const work = mkdtempSync(join(tmpdir(), 'lp-live-workflows-'));
let sandbox: TargetServer | undefined;
afterAll(async () => {
  await sandbox?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('contract:live with the workflows', () => {
  it('the run fails on a workflow the suite passed, and every report lists the workflows apart', {
    timeout: LIVE_RUN_TIMEOUT_MS + 30_000,
  }, async () => {
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    sandbox = await startSandbox({
      mutation: 'get-field-missing',
      sandboxArgs: ['--log-level', 'silent'],
      sandboxEnv: { LP_REDIRECT_URI: redirectUri },
    });
    const dir = join(work, 'run');
    const run = await contractLive(sandbox.env, dir, [], ['contract-tests/token/service-token.test.ts'], { workflows: true });
    expect(run.output).toMatch(/^contract verdict: PASS/m);
    expect(run.output).toMatch(/^workflows verdict: FAIL: .*1 failed/m);
    expect(run.exitCode, run.output.slice(-2000)).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunReport;
    const failed = report.workflows?.workflows.filter((w) => w.outcome === 'failed').map((w) => w.workflowId);
    expect(failed).toEqual(['lookUpVehicleFromList']);
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary).toContain('## Workflows (Arazzo, run by Redocly Respect)');
    expect(summary).toMatch(/\| ✗ `lookUpVehicleFromList` \| failed \|/);
    const page = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(page).toContain('id="workflows"');
    expect(page).toContain('lookUpVehicleFromList');
    for (const text of [run.output, summary, page, JSON.stringify(report), readFileSync(join(dir, 'workflows', 'workflows.json'), 'utf8')])
      expectNoSecrets(
        text,
        SECRET_VARIABLES.map((name) => sandbox!.env[name]),
      );
  });

  it("the run's exit code: a violation in either fails it, then could not judge, else a pass", () => {
    expect(combinedExitCode(0, 0)).toBe(0);
    expect(combinedExitCode(0, 1)).toBe(1);
    expect(combinedExitCode(2, 1)).toBe(1);
    expect(combinedExitCode(0, 2)).toBe(2);
    expect(combinedExitCode(2, 0)).toBe(2);
  });
});
