// The versioning policy: one version for the package and the specs, and a breaking spec change needs a major release.
// The last test runs `npm run release:check`'s script as CI does, in a throwaway git repo holding the kit's specs.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { repoRoot } from '../../spec-core/apis.ts';
import { runScript } from '../../tools/processes.ts';
import { pendingBumps, releaseVerdict, SPEC_FILES, specVersionProblems, writeSpecVersions } from '../../tools/release/versioning.ts';
import type { Change } from '../../tools/spec-diff.ts';

const NAME = '@logistics-partner/api';
const BREAKING: Change[] = [{ severity: 'breaking', where: 'POST /token', what: 'the `expired_in` field is renamed or removed', path: '' }];

describe('releaseVerdict', () => {
  it('accepts any bump, or none, without a breaking change', () => {
    expect(releaseVerdict({ breaking: [], baseVersion: '1.2.3', version: '1.2.3', bumps: [] }).ok).toBe(true);
  });

  it('refuses a breaking change with no changeset, or only minor and patch ones, and says what to add', () => {
    const none = releaseVerdict({ breaking: BREAKING, baseVersion: '1.2.3', version: '1.2.3', bumps: [] });
    expect(none).toEqual({ ok: false, message: expect.stringContaining('need a major version, but there is no changeset') });
    expect(none.message).toContain('POST /token: the `expired_in` field is renamed or removed');
    const minor = releaseVerdict({
      breaking: BREAKING,
      baseVersion: '1.2.3',
      version: '1.3.0',
      bumps: [
        { file: 'a.md', bump: 'minor' },
        { file: 'b.md', bump: 'patch' },
      ],
    });
    expect(minor).toEqual({ ok: false, message: expect.stringContaining('the changesets ask only for minor, patch') });
  });

  it('accepts a breaking change with a major changeset, or a major version already made', () => {
    expect(
      releaseVerdict({ breaking: BREAKING, baseVersion: '1.2.3', version: '1.2.3', bumps: [{ file: 'x.md', bump: 'major' }] }).ok,
    ).toBe(true);
    expect(releaseVerdict({ breaking: BREAKING, baseVersion: '1.2.3', version: '2.0.0', bumps: [] }).ok).toBe(true);
  });
});

describe('one version for the package and the specs', () => {
  it("holds in this repo: every spec's info.version is the package version", () => {
    const { version } = JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as { version: string };
    expect(specVersionProblems(repoRoot, version)).toEqual([]);
    expect(specVersionProblems(repoRoot, '9.9.9')).toHaveLength(SPEC_FILES.length);
    expect(SPEC_FILES.filter((file) => file.endsWith('.arazzo.yaml'))).toHaveLength(4);
  });

  it('writeSpecVersions changes only the info.version line of each spec', () => {
    const copy = mkdtempSync(join(tmpdir(), 'lp-spec-version-'));
    try {
      cpSync(`${repoRoot}/openapi`, `${copy}/openapi`, { recursive: true });
      const before = SPEC_FILES.map((file) => readFileSync(join(copy, file), 'utf8'));
      expect(writeSpecVersions(copy, '2.0.0')).toEqual(SPEC_FILES);
      SPEC_FILES.forEach((file, i) => {
        const after = readFileSync(join(copy, file), 'utf8');
        expect((parse(after) as { info: { version: string } }).info.version).toBe('2.0.0');
        expect(after.split('\n').filter((line, n) => line !== before[i]!.split('\n')[n])).toEqual(['  version: 2.0.0']);
      });
      expect(specVersionProblems(copy, '2.0.0')).toEqual([]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('npm run release:check -- <base-ref>', () => {
  let repo: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
  const check = () => runScript(`${repoRoot}/scripts/release-check.ts`, ['HEAD'], repo);

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'lp-release-check-'));
    cpSync(`${repoRoot}/openapi`, `${repo}/openapi`, { recursive: true });
    cpSync(`${repoRoot}/package.json`, `${repo}/package.json`);
    git('init', '--quiet');
    git('add', '.');
    git('-c', 'user.name=release-check test', '-c', 'user.email=release-check@example.invalid', 'commit', '--quiet', '-m', 'base');
    // A breaking change: the service token's expired_in renamed to the usual expires_in.
    const file = join(repo, 'openapi/token/components/schemas/ServiceTokenResponse.yaml');
    const schema = parse(readFileSync(file, 'utf8'));
    schema.properties.expires_in = schema.properties.expired_in;
    delete schema.properties.expired_in;
    schema.required = schema.required.map((name: string) => (name === 'expired_in' ? 'expires_in' : name));
    writeFileSync(file, stringify(schema));
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('fails a breaking spec change with only a minor changeset, and passes once a major one is added', () => {
    cpSync(join(repoRoot, '.changeset/config.json'), join(repo, '.changeset/config.json'));
    writeFileSync(join(repo, '.changeset/rename-lifetime.md'), `---\n"${NAME}": minor\n---\n\nThe token lifetime is expires_in.\n`);
    expect(pendingBumps(join(repo, '.changeset'), NAME)).toEqual([{ file: 'rename-lifetime.md', bump: 'minor' }]);
    const refused = check();
    expect(refused.out).toContain('need a major version, but the changesets ask only for minor');
    expect(refused.out).toMatch(/POST \/token: [^;]*`expired_in`/);
    expect(refused.code).toBe(1);

    writeFileSync(join(repo, '.changeset/rename-lifetime.md'), `---\n"${NAME}": major\n---\n\nThe token lifetime is expires_in.\n`);
    const accepted = check();
    expect(accepted.out).toContain('released as a major version by rename-lifetime.md');
    expect(accepted.code).toBe(0);
  });

  it('fails when a spec info.version drifts from the package version', () => {
    const file = join(repo, 'openapi/fleet/openapi.yaml');
    const original = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, original.replace(/^ {2}version: .*$/m, '  version: 7.7.7'));
      const drifted = check();
      expect(drifted.out).toContain('openapi/fleet/openapi.yaml: info.version is "7.7.7"');
      expect(drifted.code).toBe(1);
    } finally {
      writeFileSync(file, original);
    }
  });
});
