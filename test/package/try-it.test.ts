// What pack:check reads from the package README's "Try it in five minutes" section and runs as written (try-it.ts),
// the samples as CommonJS (consumer-project.ts), and what the local registry must serve for it (registry.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { asCommonJs } from '../../tools/release/consumer-project.ts';
import { typescriptBlocks } from '../../tools/release/package-contents.ts';
import { PACKAGE_README } from '../../tools/release/package-stage.ts';
import { dependencyClosure } from '../../tools/release/registry.ts';
import { cloneUrl, readTryIt, TRY_IT_HEADING, tryItSection } from '../../tools/release/try-it.ts';

const NAME = '@logistics-partner/api';
const readme = readFileSync(join(repoRoot, PACKAGE_README), 'utf8');
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { repository: { url: string } };
const REPOSITORY = cloneUrl(manifest.repository)!;

describe('the "Try it in five minutes" section', () => {
  it("clones the package's repository, sets up an ESM project, saves a program, runs it and says what it prints", () => {
    expect(REPOSITORY).toBe('https://github.com/logistics-partner/api-kit.git');
    // Near the top: before the install section.
    expect(readme.indexOf(TRY_IT_HEADING)).toBeLessThan(readme.indexOf('## Install'));
    const tryIt = readTryIt(readme, NAME, REPOSITORY);
    expect(tryIt.blocks.map((block) => block.kind)).toEqual(['sandbox', 'shell', 'file', 'shell', 'output']);
    expect(tryIt.devDependencies).toEqual(['typescript', 'tsx', '@types/node']);
    const [sandbox, project, program, run, output] = tryIt.blocks;
    expect(sandbox!.text).toContain('npm run sandbox');
    expect(project!.text).toMatch(/^npm pkg set type=module$/m);
    expect(project!.text).toMatch(new RegExp(`^npm install ${NAME}$`, 'm'));
    expect(project!.text).toMatch(/^npx tsc --init\b/m);
    expect(program).toMatchObject({ kind: 'file', name: 'first-hour.ts' });
    expect(run!.text).toContain('first-hour.ts');
    expect(output!.text).toMatch(/^\d+ vehicles/);
    // The program is a sample too: compiled in every configuration and run like the others.
    expect(typescriptBlocks(readme)[0]).toBe(program!.text);
    // The section mentions the sandbox, ESM and @types/node, which a new project needs.
    expect(tryItSection(readme)).toMatch(/sandbox[\s\S]*"type": "commonjs"|CommonJS/);
    expect(tryItSection(readme)).toContain('@types/node');
    expect(tryItSection(readme)).toContain('.mts');
  });

  it('refuses a section that drifted from what pack:check can follow, listing every problem', () => {
    const section = tryItSection(readme)!;
    const broken = readme.replace(
      section,
      section
        .replace(`git clone ${REPOSITORY}`, 'git clone https://example.com/another.git')
        .replace('// first-hour.ts\n', '')
        .replace('npx tsx --env-file=.env first-hour.ts', 'npx tsx first-hour.ts')
        .replace(/```text\n[\s\S]*?```\n/, ''),
    );
    expect(() => readTryIt(broken, NAME, REPOSITORY)).toThrow(
      [
        `the sandbox block must start with "git clone ${REPOSITORY}" (package.json's repository)`,
        '- a TypeScript block does not name its file on its first line (// name.ts)',
        '- no shell block reads .env (the LP_* lines the sandbox printed)',
        '- the section must end with the output to expect (a ```text block)',
      ].join('\n'),
    );
    expect(() => readTryIt(readme.replace(TRY_IT_HEADING, '## Quick start'), NAME, REPOSITORY)).toThrow(
      /has no "## Try it in five minutes" section/,
    );
    expect(() => readTryIt(readme.replace(`npm install ${NAME}\n`, ''), NAME, REPOSITORY)).toThrow(
      /no shell block runs "npm install @logistics-partner\/api"/,
    );
  });

  it('takes package.json repository URLs as git clone does', () => {
    expect(cloneUrl({ url: 'git+https://github.com/o/r.git' })).toBe('https://github.com/o/r.git');
    expect(cloneUrl('https://github.com/o/r')).toBe('https://github.com/o/r');
    expect(cloneUrl(undefined)).toBeUndefined();
  });
});

describe('samples as CommonJS', () => {
  it('keeps the imports at the top and puts the statements into an async function', () => {
    const sample = "// a.ts\nimport { a } from 'x';\nimport type {\n  B,\n} from 'y';\n\nconst b: B = await a();\nconsole.log(b);\n";
    expect(asCommonJs(sample)).toBe(
      "// a.ts\nimport { a } from 'x';\nimport type {\n  B,\n} from 'y';\n\n\nexport {};\n\nasync function main(): Promise<void> {\nconst b: B = await a();\nconsole.log(b);\n}\n\nvoid main();\n",
    );
  });
});

describe('what the local registry serves', () => {
  it('every package the dev tools need at run time, the installed platform binary included, and names the absent optional ones', () => {
    const { packages, absent } = dependencyClosure(join(repoRoot, 'node_modules'), { dependencies: { tsx: '*', '@types/node': '*' } });
    const names = packages.map((found) => found.name);
    expect(names).toEqual(expect.arrayContaining(['tsx', 'esbuild', '@types/node', 'undici-types']));
    const binary = names.find((name) => name.startsWith('@esbuild/'));
    expect(binary).toBe(`@esbuild/${process.platform}-${process.arch}`);
    expect(absent.length).toBeGreaterThan(10);
    expect(absent).not.toContain(binary);
    for (const found of packages) expect(found.manifest.name).toBe(found.name);
    expect(() => dependencyClosure(join(repoRoot, 'node_modules'), { dependencies: { 'no-such-package-here': '*' } })).toThrow(
      'pack:check: no-such-package-here is not installed (npm ci)',
    );
  });
});
