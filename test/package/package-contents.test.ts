// The rules pack:check applies to the shipped README and the tarball, on the real README and on broken copies of it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import {
  checkPackageReadme,
  checkTarballFiles,
  markdownLinks,
  REQUIRED_FILES,
  typescriptBlocks,
} from '../../tools/release/package-contents.ts';
import { PACKAGE_README } from '../../tools/release/package-stage.ts';
import { WORKFLOW_FILES } from '../../spec-core/workflows.ts';

const NAME = '@logistics-partner/api';
const readme = readFileSync(`${repoRoot}/${PACKAGE_README}`, 'utf8');
const FILES = [...REQUIRED_FILES, 'dist/client/src/token.d.ts'];

describe('the package README', () => {
  it('passes: links stay in the package or are https, no npm script, an install command', () => {
    expect(checkPackageReadme(readme, NAME, FILES, 'https://github.com/logistics-partner/api-kit.git')).toEqual([]);
    expect(markdownLinks(readme)).toEqual(
      expect.arrayContaining(['CHANGELOG.md', 'LICENSE', 'https://logistics-partner.github.io/api-kit/']),
    );
  });

  it('names every Arazzo workflow the package ships, and how to run one with Respect', () => {
    for (const name of WORKFLOW_FILES) expect(readme).toContain(`\`${name}\``);
    expect(readme).toMatch(/npx @redocly\/cli respect node_modules\/@logistics-partner\/api\/dist\/openapi\/[a-z-]+\.arazzo\.yaml/);
  });

  it('has a TypeScript sample for configuration, each API, errors and the authorization code flow', () => {
    const samples = typescriptBlocks(readme).join('\n');
    for (const call of [
      'getToken()',
      "POST('/token'",
      "POST('/v1/load-milestone-events'",
      "GET('/vehicles'",
      'instanceof ApiError',
      'exchangeAuthorizationCode(',
    ]) {
      expect(samples).toContain(call);
    }
  });

  it('is refused when it links into the repo, mentions an npm script or has no install command', () => {
    const broken = readme
      .replace(
        '[CHANGELOG.md](CHANGELOG.md)',
        '[architecture](../shared/ARCHITECTURE.md), [specs](openapi/token/openapi.yaml), [plain](http://example.com/)',
      )
      .replace('npm install @logistics-partner/api', 'npm ci && npm run contract');
    const problems = checkPackageReadme(broken, NAME, FILES, 'https://github.com/logistics-partner/api-kit.git');
    expect(problems).toEqual([
      'README links outside the package: ../shared/ARCHITECTURE.md',
      'README links outside the package: openapi/token/openapi.yaml',
      'README links to a non-https URL: http://example.com/',
      'README mentions an npm script: "npm run contract"',
      `README has no install command (a shell block with "npm install ${NAME}")`,
    ]);
  });

  it('refuses the contributor README, which the tarball shipped before: npm scripts, links into the repo, no install', () => {
    const contributors = readFileSync(`${repoRoot}/README.md`, 'utf8');
    const problems = checkPackageReadme(contributors, NAME, FILES);
    expect(problems.filter((p) => p.startsWith('README mentions an npm script')).length).toBeGreaterThan(20);
    expect(problems).toContain('README links outside the package: openapi/');
  });

  it('allows an npm script only in a shell block that first clones the kit (the sandbox of "Try it in five minutes")', () => {
    const clone = 'https://github.com/logistics-partner/api-kit.git';
    expect(checkPackageReadme(readme, NAME, FILES, clone)).toEqual([]);
    // Without the repository, or with another one, the sandbox block's npm script counts.
    expect(checkPackageReadme(readme, NAME, FILES)).toEqual(['README mentions an npm script: "npm run sandbox"']);
    expect(checkPackageReadme(readme, NAME, FILES, 'https://github.com/someone/else.git')).toEqual([
      'README mentions an npm script: "npm run sandbox"',
    ]);
    // A clone further down the block does not make a block the kit's.
    const late = `${readme}\n\`\`\`sh\nnpm run build\ngit clone ${clone}\n\`\`\`\n`;
    expect(checkPackageReadme(late, NAME, FILES, clone)).toEqual(['README mentions an npm script: "npm run build"']);
  });

  it('counts an npm script inside a code block too', () => {
    expect(
      checkPackageReadme(`${readme}\n\`\`\`sh\nnpm run sandbox\n\`\`\`\n`, NAME, FILES, 'https://github.com/logistics-partner/api-kit.git'),
    ).toEqual(['README mentions an npm script: "npm run sandbox"']);
  });
});

describe('the tarball', () => {
  it('requires every Arazzo workflow beside the specs, and names one that is missing', () => {
    expect(FILES.filter((file) => file.endsWith('.arazzo.yaml'))).toEqual(WORKFLOW_FILES.map((name) => `dist/openapi/${name}`));
    const [first] = WORKFLOW_FILES;
    expect(checkTarballFiles(FILES.filter((file) => !file.endsWith(first)))).toEqual([`missing from the tarball: dist/openapi/${first}`]);
    expect(checkTarballFiles([...FILES, 'openapi/workflows/look-up-vehicle-from-list.arazzo.yaml'])).toEqual([
      'unexpected file in the tarball: openapi/workflows/look-up-vehicle-from-list.arazzo.yaml',
    ]);
  });

  it('accepts the required files and refuses anything else, naming it', () => {
    expect(checkTarballFiles(FILES)).toEqual([]);
    expect(checkTarballFiles([...FILES.filter((f) => f !== 'LICENSE'), 'dist/client/src/index.js.map', 'src/index.ts'])).toEqual([
      'unexpected file in the tarball: dist/client/src/index.js.map',
      'unexpected file in the tarball: src/index.ts',
      'missing from the tarball: LICENSE',
    ]);
  });
});
