// What the published package may and must contain, and the rules for the README it ships (pack:check enforces both).
import { WORKFLOW_FILES } from '../../spec-core/workflows.ts';

/** Every file of the tarball matches one of these. */
export const ALLOWED_FILES = [
  /^dist\/client\/.+\.(js|d\.ts)$/,
  /^dist\/openapi\/(token|carriers|fleet)\.(yaml|json)$/,
  // The Arazzo workflows of the documented flows, beside the specs they name (spec-core/workflows.ts).
  /^dist\/openapi\/[a-z][a-z-]*\.arazzo\.yaml$/,
  /^(README\.md|LICENSE|CHANGELOG\.md|package\.json)$/,
];
export const REQUIRED_FILES = [
  'package.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
  'dist/client/src/index.js',
  'dist/client/src/index.d.ts',
  'dist/client/src/fleet.d.ts',
  'dist/openapi/fleet.yaml',
  ...WORKFLOW_FILES.map((name) => `dist/openapi/${name}`),
];

export function checkTarballFiles(files: string[]): string[] {
  const unexpected = files.filter((path) => !ALLOWED_FILES.some((pattern) => pattern.test(path)));
  const missing = REQUIRED_FILES.filter((path) => !files.includes(path));
  return [
    ...unexpected.map((path) => `unexpected file in the tarball: ${path}`),
    ...missing.map((path) => `missing from the tarball: ${path}`),
  ];
}

/** Link targets of a Markdown text: [text](target), <https://...> autolinks and href="..." attributes. */
export function markdownLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '');
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const reference = [...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!);
  const auto = [...prose.matchAll(/<((?:https?|ftp|file):[^>\s]+)>/g)].map((m) => m[1]!);
  const href = [...prose.matchAll(/\bhref\s*=\s*["']([^"']+)["']/g)].map((m) => m[1]!);
  return [...inline, ...reference, ...auto, ...href];
}

/** The fenced code blocks of a Markdown text, fence by fence: language, body, and where the block starts and ends. */
export function fencedBlocks(markdown: string): Array<{ lang: string; body: string; start: number; end: number }> {
  const blocks: Array<{ lang: string; body: string; start: number; end: number }> = [];
  let open: { lang: string; start: number; bodyStart: number } | undefined;
  let offset = 0;
  for (const line of markdown.split('\n')) {
    const fence = /^```([\w-]*)[ \t]*$/.exec(line);
    if (fence && !open) open = { lang: fence[1]!, start: offset, bodyStart: offset + line.length + 1 };
    else if (fence && fence[1] === '' && open) {
      blocks.push({ lang: open.lang, body: markdown.slice(open.bodyStart, offset), start: open.start, end: offset + line.length });
      open = undefined;
    }
    offset += line.length + 1;
  }
  return blocks;
}

/** The TypeScript samples of a Markdown text (```ts and ```typescript fences), in order. */
export function typescriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```(?:ts|typescript)[ \t]*\n([\s\S]*?)^```[ \t]*$/gm)].map((m) => m[1]!);
}

/**
 * The shipped README's problems: a relative link must name a file of the package (a link into the repo breaks on the
 * registry's page and in node_modules), an absolute one must be https; no `npm run` script of the repo may be
 * mentioned (consumers have none of them), except in a shell block that first clones `repository` (the kit: its
 * scripts exist there, e.g. the sandbox's); and it must show how to install the package.
 */
export function checkPackageReadme(markdown: string, packageName: string, files: string[], repository?: string): string[] {
  const problems: string[] = [];
  for (const link of markdownLinks(markdown)) {
    if (link.startsWith('#')) continue;
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) {
      if (!link.startsWith('https://')) problems.push(`README links to a non-https URL: ${link}`);
      continue;
    }
    const path = link.replace(/[#?].*$/, '').replace(/^\.\//, '');
    if (path.startsWith('/') || path.split('/').includes('..') || !files.includes(decodeURI(path))) {
      problems.push(`README links outside the package: ${link}`);
    }
  }
  const clones = fencedBlocks(markdown).filter(
    (block) =>
      /^(sh|shell|bash)?$/.test(block.lang) &&
      repository !== undefined &&
      block.body.trimStart().split('\n')[0]!.trim() === `git clone ${repository}`,
  );
  const outsideClones = clones.reduceRight((text, block) => text.slice(0, block.start) + text.slice(block.end), markdown);
  for (const match of outsideClones.matchAll(/\bnpm\s+(?:run|run-script|rum|urn)\s+(\S+)/g))
    problems.push(`README mentions an npm script: "${match[0]}"`);
  const install = new RegExp(
    `^\\s*(?:npm (?:install|i|add)|pnpm add|yarn add)\\s+(?:-\\S+\\s+)*${packageName.replace(/[/.]/g, '\\$&')}(?:@\\S+)?\\s*$`,
    'm',
  );
  const shellBlocks = [...markdown.matchAll(/^```(?:sh|shell|bash|console)?[ \t]*\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
  if (!shellBlocks.some((block) => install.test(block)))
    problems.push(`README has no install command (a shell block with "npm install ${packageName}")`);
  return problems;
}
