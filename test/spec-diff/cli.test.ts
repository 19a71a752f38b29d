// Runs `scripts/spec-diff.ts` as a process in a throw-away git repository holding a copy of the kit's specs:
// the exit code and the listing for no change, a breaking change, an intended one, and a bad ref.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { repoRoot } from '../../spec-core/apis.ts';
import { runScript } from '../../tools/processes.ts';

let repo: string;

const specDiff = (...args: string[]) => runScript(`${repoRoot}/scripts/spec-diff.ts`, args, repo);

const originals = new Map<string, string>();

function editYaml(file: string, edit: (doc: any) => void) {
  const text = readFileSync(`${repo}/${file}`, 'utf8');
  if (!originals.has(file)) originals.set(file, text);
  const doc = parse(text);
  edit(doc);
  writeFileSync(`${repo}/${file}`, stringify(doc));
}

function restoreEdits() {
  for (const [file, text] of originals) writeFileSync(`${repo}/${file}`, text);
  originals.clear();
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });

beforeAll(() => {
  repo = mkdtempSync(`${tmpdir()}/spec-diff-cli-`);
  cpSync(`${repoRoot}/openapi`, `${repo}/openapi`, { recursive: true });
  git('init', '--quiet');
  git('add', 'openapi');
  git('-c', 'user.name=spec-diff test', '-c', 'user.email=spec-diff@example.invalid', 'commit', '--quiet', '-m', 'specs');
});

afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('npm run spec:diff', () => {
  it('passes and lists no change when the work tree equals the ref', () => {
    const { code, out } = specDiff('HEAD');
    expect(out).toContain('0 change(s), 0 breaking');
    expect(code).toBe(0);
  });

  it('fails on a removed operation and a renamed expired_in, naming both; passes with --allow-breaking', () => {
    editYaml('openapi/fleet/openapi.yaml', (doc) => delete doc.paths['/vehicles/{vehicleNumber}']);
    editYaml('openapi/token/components/schemas/ServiceTokenResponse.yaml', (schema) => {
      schema.properties.expires_in = schema.properties.expired_in;
      delete schema.properties.expired_in;
      schema.required = schema.required.map((name: string) => (name === 'expired_in' ? 'expires_in' : name));
    });
    try {
      const refused = specDiff('HEAD');
      expect(refused.out).toMatch(/BREAKING\s+GET \/vehicles\/\{vehicleNumber\}/);
      expect(refused.out).toMatch(/BREAKING\s+POST \/token: .*the `expired_in` field is renamed or removed/);
      expect(refused.out).toContain('rerun with --allow-breaking');
      expect(refused.code).toBe(1);

      const allowed = specDiff('HEAD', '--allow-breaking');
      expect(allowed.out).toContain('Breaking changes accepted');
      expect(allowed.code).toBe(0);
    } finally {
      restoreEdits();
    }
  });

  it('names a ref that does not exist and the usage when the ref is missing', () => {
    const unknown = specDiff('no-such-branch');
    expect(unknown.out).toContain('"no-such-branch" is not a commit');
    expect(unknown.code).toBe(2);
    const missing = specDiff();
    expect(missing.out).toMatch(/^npm run spec:diff --: expected one git ref, got 0\nRun `npm run spec:diff -- --help`/);
    expect(missing.code).toBe(2);
  });

  it('answers --help with the usage and the classes, exit 0; refuses an unknown option with exit 2', () => {
    const help = specDiff('--help');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^usage: npm run spec:diff -- \[options\] <git-ref>/);
    expect(help.out).toContain('--allow-breaking');
    const wrong = specDiff('HEAD', '--allow-braking');
    expect(wrong.code).toBe(2);
    expect(wrong.out).toMatch(/^npm run spec:diff --: Unknown option '--allow-braking'/);
  });
});
