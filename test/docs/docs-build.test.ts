// The docs builder's own decisions, on the real bundles: how each operation's authentication is stated, the
// notes added for Redoc, and the guard against pages that would load from another host.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_NAMES, repoRoot, type ApiName } from '../../spec-core/apis.ts';
import { loadBundle } from '../../spec-core/bundles.ts';
import { authenticationOf, enrichForDocs, externalReferences, inlineCdnAssets, operationsOf, redocTelemetryDisabled } from '../../tools/docs.ts';

function authOf(api: ApiName, operationId: string): string {
  const doc = loadBundle(api);
  const operation = operationsOf(doc).find(({ op }) => op.operationId === operationId);
  if (!operation) throw new Error(`${api} has no operation ${operationId}`);
  return authenticationOf(doc, operation);
}

describe('authentication stated per operation', () => {
  it('fleet operations take the API-Key header', () => {
    expect(authOf('fleet', 'listVehicles')).toBe('`API-Key: <key>` (FleetApiKey)');
    expect(authOf('fleet', 'getVehicle')).toBe('`API-Key: <key>` (FleetApiKey)');
  });

  it('the milestone operation takes a bearer token, optionally with the subscription key', () => {
    const text = authOf('carriers', 'recordLoadMilestoneEvent');
    expect(text).toMatch(/^either `Authorization: Bearer <ACCESS_TOKEN>` \(OAuth2\); or .*\*\*and\*\* `Ocp-Apim-Subscription-Key: <key>`/);
  });

  it('the service token endpoint authenticates by the form body, the authorize endpoint not at all', () => {
    expect(authOf('token', 'requestServiceToken')).toContain('`client_id` and `client_secret` in the form body');
    expect(authOf('token', 'requestIdentityProviderToken')).toBe('`Ocp-Apim-Subscription-Key: <key>` (SubscriptionKey)');
    expect(authOf('token', 'requestAuthorization')).toMatch(/^none/);
  });
});

describe('enrichForDocs', () => {
  it.each(API_NAMES)('%s: every operation opens with its authentication and the info lists the assumptions apart', (api) => {
    const doc = enrichForDocs(api, loadBundle(api));
    for (const { op } of operationsOf(doc)) expect(op.description).toMatch(/^\*\*Authentication:\*\* /);
    expect(doc.info.description).toContain('## Assumptions (not confirmed)');
    expect(doc.info.description).toContain('[← All Logistics Partner APIs](index.html)');
  });

  it('puts the expired_in warning on the operations that involve a token, and not on the fleet API', () => {
    const noted = (api: ApiName) =>
      operationsOf(enrichForDocs(api, loadBundle(api)))
        .filter(({ op }) => op.description.includes('Watch out: `expired_in`'))
        .map(({ op }) => op.operationId);
    expect(noted('token')).toContain('requestServiceToken');
    expect(noted('carriers')).toEqual(['recordLoadMilestoneEvent']);
    expect(noted('fleet')).toEqual([]);
  });

  it('leaves the bundle it was given unchanged', () => {
    const original = loadBundle('fleet');
    const copy = structuredClone(original);
    enrichForDocs('fleet', original);
    expect(original).toEqual(copy);
  });
});

describe('offline guard', () => {
  it('flags scripts, styles and fonts from another host, and not loopback or inline ones', () => {
    const page = [
      '<script src="https://cdn.redoc.ly/redoc/latest/bundles/redoc.standalone.js"></script>',
      '<link href="https://fonts.googleapis.com/css?family=Roboto" rel="stylesheet">',
      '<img src="//example.com/x.png">',
      '<script src="index.js"></script><img src="data:image/png;base64,AAAA">',
    ].join('\n');
    const found = externalReferences(page);
    expect(found.filter((f) => f.startsWith('<'))).toHaveLength(3); // the three tags from another host
    expect(found.filter((f) => !f.startsWith('<'))).toEqual([ // and the asset hosts, wherever they are named
      'https://cdn.redoc.ly/redoc/latest/bundles/redoc.standalone.js',
      'https://fonts.googleapis.com/css?family=Roboto',
    ]);
    expect(externalReferences('<script>const a = 1;</script><a href="https://redocly.com/redoc/">Redocly</a>')).toEqual([]);
  });

  it('replaces the Redocly logo URLs with inline images', () => {
    const html = inlineCdnAssets('src:e?`https://cdn.redoc.ly/redoc/logo-mini-full.svg`:`https://cdn.redoc.ly/redoc/logo-mini.svg`');
    expect(html).not.toContain('cdn.redoc.ly');
    expect(html.match(/data:image\/svg\+xml,/g)).toHaveLength(2);
  });

  it.each(API_NAMES)('the built %s page names no asset host and has Redoc telemetry switched off', (api) => {
    const page = `${repoRoot}/dist/docs/${api}.html`;
    if (!existsSync(page)) throw new Error(`${page} is missing: run \`npm run docs\` first (npm run test:docs does).`);
    const html = readFileSync(page, 'utf8');
    expect(externalReferences(html)).toEqual([]);
    expect(redocTelemetryDisabled(html)).toBe(true);
    expect(redocTelemetryDisabled(html.replace('"disableTelemetry":true', '"disableTelemetry":false'))).toBe(false);
  });
});
