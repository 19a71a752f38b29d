// The release workflow does what issue 16 asks, with least privilege, and lint:workflows catches a broken workflow
// (run as a process, as npm test runs it).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../../spec-core/apis.ts';
import { runScript } from '../../tools/processes.ts';

type Job = {
  needs?: string | string[];
  permissions?: Record<string, string>;
  steps?: Array<{ uses?: string; run?: string; with?: Record<string, string> }>;
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

describe('npm run lint:workflows', () => {
  it('passes the workflows of the repo', () => {
    const { code, out } = lint();
    expect(out).toContain('ok      .github/workflows/release.yml');
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
          '',
        ].join('\n'),
      );
      const { code, out } = lint(file);
      expect(out).toContain('FAILED');
      expect(out).toContain('/jobs/a/steps/0');
      expect(out).toContain('top-level permissions grant contents');
      expect(out).toContain('job "a" has id-token: write but neither publishes with --provenance nor deploys Pages');
      expect(code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
