// The bundles (dist/openapi/*) fed to four tools partners use, each independent of the kit: what they report
// must be nothing. Known bugs of tools not run here are documented in tools/interop/README.md.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API_NAMES, bundlePath } from '../../spec-core/apis.ts';
import { loadBundles } from '../../spec-core/bundles.ts';
import { operationsOf } from '../../spec-core/operations.ts';
import { heyApiClients, postmanConversion, readmeParser, spectralOas } from '../../tools/interop/consumers.ts';
import { requestsOf } from '../../tools/postman/build-collection.ts';

const bundles = loadBundles();
const workDir = mkdtempSync(join(tmpdir(), 'lp-interop-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('@readme/openapi-parser', () => {
  it.each(API_NAMES)('validates and dereferences %s without an error or a warning', async (api) => {
    expect((await readmeParser(api, bundles[api])).problems).toEqual([]);
  });

  it('reports a broken reference (the check can fail)', async () => {
    const broken = structuredClone(bundles.fleet);
    broken.paths['/vehicles'].get.responses['200'] = { $ref: '#/components/responses/Missing' };
    expect((await readmeParser('fleet', broken)).problems.join('\n')).toMatch(/Missing/);
  });
});

describe('openapi-to-postmanv2', () => {
  const conversions = Promise.all(API_NAMES.map((api) => postmanConversion(api, bundles[api])));

  it('converts every bundle without an error, one request per operation', async () => {
    for (const [index, conversion] of (await conversions).entries()) {
      const api = API_NAMES[index]!;
      expect(conversion.problems, api).toEqual([]);
      expect(requestsOf(conversion.collection?.item ?? []).length, api).toBe(operationsOf(bundles[api]).length);
    }
  });

  it('gets the OAuth2 token URL as an absolute URL, the one the spec declares', async () => {
    const carriers = (await conversions)[API_NAMES.indexOf('carriers')]!;
    const [milestone] = requestsOf(carriers.collection?.item ?? []);
    const tokenUrl = milestone?.request.auth.oauth2.find((entry: { key: string }) => entry.key === 'accessTokenUrl')?.value;
    expect(tokenUrl).toBe(bundles.carriers.components.securitySchemes.OAuth2.flows.clientCredentials.tokenUrl);
    expect(() => new URL(tokenUrl)).not.toThrow();
  });
});

describe('@hey-api/openapi-ts', () => {
  it('generates a fetch client per API that compiles with tsc --strict, with a function per operation', async () => {
    const outDir = join(workDir, 'hey-api');
    expect((await heyApiClients(outDir)).problems).toEqual([]);
    for (const api of API_NAMES) {
      const sdk = readFileSync(join(outDir, api, 'sdk.gen.ts'), 'utf8');
      for (const { op } of operationsOf(bundles[api])) expect(sdk, api).toContain(`export const ${op.operationId} =`);
    }
  });
});

describe('spectral:oas', () => {
  it.each(API_NAMES)('finds nothing in the %s bundle with the recommended rules', async (api) => {
    expect((await spectralOas(api, readFileSync(bundlePath(api, 'yaml'), 'utf8'))).problems).toEqual([]);
  });

  it('reports an operation without an operationId (the check can fail)', async () => {
    const text = readFileSync(bundlePath('fleet', 'yaml'), 'utf8').replace(/^( +)operationId: .*$/m, '$1x-removed: true');
    expect((await spectralOas('fleet', text)).problems.join('\n')).toMatch(/operation-operationId/);
  });
});
