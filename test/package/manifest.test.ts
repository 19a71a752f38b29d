// The published package.json, derived from the root one: the metadata a registry and a legal review read.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { deriveManifest, type Manifest } from '../../tools/release/package-stage.ts';

const root = JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as Manifest;

describe('the published manifest', () => {
  const manifest = deriveManifest(root);

  it('keeps the metadata: an open licence, repository, homepage, bugs, keywords, publishConfig, engines', () => {
    expect(manifest).toMatchObject({
      name: '@logistics-partner/api',
      license: 'MIT',
      repository: { type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\//) },
      homepage: expect.stringMatching(/^https:\/\//),
      bugs: { url: expect.stringMatching(/^https:\/\/github\.com\/.+\/issues$/) },
      publishConfig: { registry: 'https://registry.npmjs.org/', access: 'public' },
      engines: { node: '^20.19.0 || ^22.12.0 || >=24.0.0' },
      dependencies: { 'openapi-fetch': expect.any(String) },
    });
    expect((manifest.keywords as string[]).length).toBeGreaterThan(3);
  });

  it('drops what serves the repo only; the root stays private so it cannot be published by mistake', () => {
    expect(root.private).toBe(true);
    for (const field of ['private', 'scripts', 'devDependencies', 'overrides', 'allowScripts']) expect(manifest).not.toHaveProperty(field);
  });

  it("matches the specs' licence", () => {
    for (const api of ['token', 'carriers', 'fleet']) {
      expect(readFileSync(`${repoRoot}/openapi/${api}/openapi.yaml`, 'utf8')).toMatch(
        /\n {2}license:\n {4}name: MIT License\n {4}identifier: MIT\n/,
      );
    }
  });

  it('refuses a manifest without what a release needs, naming the field', () => {
    const { license: _license, ...unlicensed } = root;
    expect(() => deriveManifest(unlicensed as Manifest)).toThrow('package.json: "license" is required for a release');
    expect(() => deriveManifest({ ...root, files: [] })).toThrow('"files" must list what the package ships');
  });
});
