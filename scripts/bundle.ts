// Bundles each API under openapi/ into one file, dist/openapi/<api>.{yaml,json}: the artifact every runtime reader loads.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import { parse } from 'yaml';
import { API_NAMES, bundlePath, repoRoot } from '../spec-core/apis.ts';

const outDir = `${repoRoot}/dist/openapi`;
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

// redocly.yaml names each API's output file; one CLI call bundles all three.
execFileSync(process.execPath, [`${repoRoot}/node_modules/@redocly/cli/lib/index.js`, 'bundle', ...API_NAMES], {
  cwd: repoRoot,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});

for (const api of API_NAMES) {
  const doc = parse(readFileSync(bundlePath(api, 'yaml'), 'utf8'));
  writeFileSync(bundlePath(api, 'json'), `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`bundled ${api}: dist/openapi/${api}.yaml, dist/openapi/${api}.json`);
}
