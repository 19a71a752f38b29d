// The release workflow does what issue 16 asks, the nightly contract run (contract-live.yml) what "Violations a partner
// can act on" asks, the client's mutation testing (mutation.yml) what issue 33 asks, each with least privilege, and
// lint:workflows catches a broken workflow (run as a process, as npm test runs it).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { LP_VARIABLES, RUN_VARIABLES, SECRET_VARIABLES } from '../../config/environment.ts';
import { repoRoot } from '../../spec-core/apis.ts';
import { runScript } from '../../tools/processes.ts';

type Job = {
  needs?: string | string[];
  environment?: string;
  permissions?: Record<string, string>;
  steps?: Array<{
    id?: string;
    name?: string;
    if?: string;
    uses?: string;
    run?: string;
    with?: Record<string, string>;
    env?: Record<string, string>;
  }>;
};
const release = parse(readFileSync(`${repoRoot}/.github/workflows/release.yml`, 'utf8')) as {
  on: unknown;
  permissions: unknown;
  jobs: Record<string, Job>;
};
const steps = (job: string) => release.jobs[job]!.steps ?? [];
const runs = (job: string) =>
  steps(job)
    .map((s) => s.run ?? '')
    .join('\n');

const lint = (...files: string[]) => runScript(`${repoRoot}/scripts/lint-workflows.ts`, files, repoRoot);

describe('release.yml', () => {
  it('runs on a version tag, with no permission by default', () => {
    expect(release.on).toEqual({ push: { tags: ['v[0-9]+.[0-9]+.[0-9]+'] } });
    expect(release.permissions).toEqual({});
  });

  it('runs the full npm test (through .ci/run) before anything is published', () => {
    expect(runs('test')).toContain('.ci/run');
    expect(readFileSync(`${repoRoot}/.ci/run`, 'utf8')).toMatch(/npm test/);
    expect(release.jobs.publish!.needs).toBe('test');
    expect(release.jobs.pages!.needs).toBe('test');
  });

  it('publishes the staged package with provenance through the same script as the round trip', () => {
    expect(runs('test')).toContain('npm run release:stage');
    expect(runs('publish')).toContain('npm run release:publish -- --provenance');
    expect(release.jobs.publish!.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    const manifest = JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts['release:publish']).toBe('npm publish ./dist/package');
  });

  it('deploys dist/docs/ to GitHub Pages and attaches the bundled specs and the Postman collection to the release', () => {
    expect(steps('test')).toContainEqual(
      expect.objectContaining({ uses: 'actions/upload-pages-artifact@v3', with: { path: 'dist/docs/' } }),
    );
    expect(steps('pages').map((s) => s.uses)).toContain('actions/deploy-pages@v4');
    expect(runs('test')).toContain('cp dist/openapi/*.yaml dist/openapi/*.json dist/release/');
    expect(runs('test')).toContain('cp dist/docs/postman/*.postman_collection.json dist/release/');
    expect(runs('github-release')).toContain('gh release create "$GITHUB_REF_NAME" dist/release/*');
  });

  it('grants write permissions only to the job that needs each one', () => {
    const writers = Object.entries(release.jobs).flatMap(([name, job]) =>
      Object.entries(job.permissions ?? {})
        .filter(([, level]) => level === 'write')
        .map(([scope]) => `${name}:${scope}`),
    );
    expect(writers.sort()).toEqual(['github-release:contents', 'pages:id-token', 'pages:pages', 'publish:id-token']);
  });
});

describe('contract-live.yml', () => {
  const text = readFileSync(`${repoRoot}/.github/workflows/contract-live.yml`, 'utf8');
  const live = parse(text) as { on: Record<string, unknown>; permissions: unknown; jobs: Record<string, Job> };
  const contract = live.jobs.contract!;
  const issue = live.jobs.issue!;
  const suite = contract.steps!.find((step) => step.id === 'run')!;
  /** A GitHub Actions expression, as the workflow spells it. */
  const expr = (inner: string) => `\${{ ${inner} }}`;

  it('runs every night and on demand, with no permission by default', () => {
    expect(Object.keys(live.on).sort()).toEqual(['schedule', 'workflow_dispatch']);
    expect(live.on.schedule).toEqual([{ cron: expect.stringMatching(/^\d+ \d+ \* \* \*$/) }]);
    expect(live.permissions).toEqual({});
  });

  it("takes the credentials from the staging environment's secrets and the rest of the target from its variables", () => {
    expect(contract.environment).toBe('staging');
    for (const name of LP_VARIABLES)
      expect(suite.env?.[name], name).toBe(SECRET_VARIABLES.includes(name) ? expr(`secrets.${name}`) : expr(`vars.${name}`));
    for (const [name, value] of Object.entries(suite.env ?? {})) {
      expect([...LP_VARIABLES, ...Object.keys(RUN_VARIABLES)]).toContain(name);
      if (name in RUN_VARIABLES) expect(value).toBe(expr(`vars.${name}`));
    }
    // No other secret anywhere in the workflow.
    expect(new Set([...text.matchAll(/secrets\.(\w+)/g)].map((m) => m[1]))).toEqual(new Set(SECRET_VARIABLES));
  });

  it("runs npm ci, then contract:live with the last run's reports as the baseline, and uploads the reports", () => {
    const runs = contract.steps!.map((step) => step.run ?? '').join('\n');
    expect(runs.indexOf('npm ci')).toBeGreaterThan(-1);
    expect(runs.indexOf('npm ci')).toBeLessThan(runs.indexOf('npm run contract:live'));
    expect(suite.run).toContain(`npm run contract:live -- "\${baseline[@]}" --out dist/contract`);
    expect(suite.run).toContain('baseline=(--baseline dist/contract-baseline)');
    expect(contract.steps).toContainEqual(
      expect.objectContaining({ uses: 'actions/upload-artifact@v4', with: expect.objectContaining({ path: 'dist/contract/' }) }),
    );
    // The baseline is a cache entry per run, found by its prefix, restored and saved at the same path.
    const restore = contract.steps!.find((step) => step.uses === 'actions/cache/restore@v4')!;
    const save = contract.steps!.find((step) => step.uses === 'actions/cache/save@v4')!;
    expect(restore.with?.path).toBe('dist/contract-baseline');
    expect(save.with?.path).toBe('dist/contract-baseline');
    expect(save.with?.key).toBe(restore.with?.key);
    expect(restore.with?.key).toContain(expr('github.run_id'));
    expect(restore.with?.key?.startsWith(restore.with?.['restore-keys'] ?? '?')).toBe(true);
  });

  it('runs the Arazzo workflows within contract:live (no step of their own), and fails on the exit code of the run', () => {
    expect(suite.run).not.toContain('--no-workflows');
    expect(contract.steps!.filter((step) => step.run?.includes('contract:workflows'))).toEqual([]);
    const verdict = contract.steps!.find((step) => step.name?.startsWith('The verdict'))!;
    expect(verdict.env).toEqual({ EXIT_CODE: expr('steps.run.outputs.exit-code') });
    expect(verdict.run).toMatch(/^exit "\$\{EXIT_CODE:-2\}"$/);
  });

  it('writes the issue from a job of its own, the only write permission of the workflow', () => {
    const writers = Object.entries(live.jobs).flatMap(([name, job]) =>
      Object.entries(job.permissions ?? {})
        .filter(([, level]) => level === 'write')
        .map(([scope]) => `${name}:${scope}`),
    );
    expect(writers).toEqual(['issue:issues']);
    expect(contract.permissions).toEqual({ contents: 'read' });
    expect(issue.needs).toBe('contract');
    const step = issue.steps!.find((s) => s.run?.includes('npm run contract:issue'))!;
    expect(step.run).toContain('--exit-code "$EXIT_CODE"');
    expect(step.env).toMatchObject({
      GITHUB_TOKEN: expr('github.token'),
      EXIT_CODE: expr('needs.contract.outputs.exit-code'),
    });
    // The job that can write holds no credential of the target: no environment, no secret.
    expect(issue.environment).toBeUndefined();
    expect(JSON.stringify(issue)).not.toMatch(/secrets\./);
  });
});

describe('mutation.yml', () => {
  type Workflow = {
    on: Record<string, { paths?: string[] } | null>;
    permissions: unknown;
    jobs: Record<string, Job & Record<string, unknown>>;
  };
  const mutation = parse(readFileSync(`${repoRoot}/.github/workflows/mutation.yml`, 'utf8')) as Workflow;
  const job = mutation.jobs.mutation!;
  const live = parse(readFileSync(`${repoRoot}/.github/workflows/contract-live.yml`, 'utf8')) as Workflow;

  it('runs npm run test:mutation when a pull request or a push changes the client, its tests or the set-up, and on demand', () => {
    expect(Object.keys(mutation.on).sort()).toEqual(['pull_request', 'push', 'workflow_call', 'workflow_dispatch']);
    for (const event of ['push', 'pull_request'])
      expect(mutation.on[event]?.paths).toEqual(expect.arrayContaining(['src/**', 'test/client/**', 'stryker.config.mjs']));
    expect(job.steps!.map((step) => step.run ?? '')).toContain('npm run test:mutation');
    expect(job['timeout-minutes']).toEqual(expect.any(Number));
  });

  it('runs every night as a job of contract-live.yml, read-only and without the staging environment', () => {
    expect(live.jobs.mutation).toMatchObject({ uses: './.github/workflows/mutation.yml', permissions: { contents: 'read' } });
    expect(live.jobs.mutation!.environment).toBeUndefined();
    expect(mutation.permissions).toEqual({});
    expect(job.permissions).toEqual({ contents: 'read' });
  });

  it("carries Stryker's incremental file from run to run in the Actions cache, and uploads the report", () => {
    const restore = job.steps!.find((step) => step.uses === 'actions/cache/restore@v4')!;
    const save = job.steps!.find((step) => step.uses === 'actions/cache/save@v4')!;
    expect(restore.with?.path).toBe('dist/mutation/stryker-incremental.json');
    expect(save.with).toEqual(expect.objectContaining({ path: restore.with?.path, key: restore.with?.key }));
    expect(restore.with?.key?.startsWith(restore.with?.['restore-keys'] ?? '?')).toBe(true);
    // The nightly run starts without it, so that no reused result outlives the tests (static mutants).
    expect(restore.if).toContain("github.event_name != 'schedule'");
    expect(save.if).not.toContain('schedule');
    expect(job.steps).toContainEqual(
      expect.objectContaining({
        uses: 'actions/upload-artifact@v4',
        with: expect.objectContaining({ path: expect.stringContaining('dist/mutation/') }),
      }),
    );
  });
});

describe('npm run lint:workflows', () => {
  it('passes the workflows of the repo', () => {
    const { code, out } = lint();
    expect(out).toContain('ok      .github/workflows/release.yml');
    expect(out).toContain('ok      .github/workflows/contract-live.yml');
    expect(out).toContain('ok      .github/workflows/mutation.yml');
    expect(code).toBe(0);
  });

  it('fails a workflow with a schema error or a write permission at the top, naming the problem', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lp-workflows-'));
    try {
      const file = join(dir, 'bad.yml');
      writeFileSync(
        file,
        [
          'name: bad',
          'on: push',
          'permissions:',
          '  contents: write',
          'jobs:',
          '  a:',
          '    runs-on: ubuntu-latest',
          '    permissions:',
          '      id-token: write',
          '    steps:',
          '      - run: echo hi',
          '        timeout-minutes: soon',
          '  b:',
          '    runs-on: ubuntu-latest',
          '    permissions: write-all',
          '    steps:',
          '      - run: echo hi',
          '  c:',
          '    runs-on: ubuntu-latest',
          '    permissions:',
          '      contents: read',
          '      issues: write',
          '    steps:',
          '      - uses: actions/checkout@v4',
          '      - run: npm run contract:live',
          '  d:',
          '    runs-on: ubuntu-latest',
          '    permissions:',
          '      issues: write',
          '    steps:',
          '      - run: gh issue create --title t --body b',
          '        env:',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
          '          GH_TOKEN: ${{ github.token }}',
          '',
        ].join('\n'),
      );
      const { code, out } = lint(file);
      expect(out).toContain('FAILED');
      expect(out).toContain('/jobs/a/steps/0');
      expect(out).toContain('top-level permissions grant contents');
      expect(out).toContain('job "a" has id-token: write but neither publishes with --provenance nor deploys Pages');
      expect(out).toContain('job "b" has permissions: write-all: name the scopes it writes');
      expect(out).toContain('job "c" has issues: write but no step writes with the token');
      // A job that passes the token to the step that writes is what the rule asks for.
      expect(out).not.toContain('job "d"');
      expect(code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
