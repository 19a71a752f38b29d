// The spec copy each Redoc page is built from, on the real bundles: the operation list first, how each operation is
// authenticated, the expired_in quirk, and the assumptions in partner language next to the operations they concern.
import { describe, expect, it } from 'vitest';
import { API_NAMES, type ApiName } from '../../spec-core/apis.ts';
import { collectAssumptions } from '../../spec-core/assumptions.ts';
import { loadBundle } from '../../spec-core/bundles.ts';
import { operationsOf } from '../../spec-core/operations.ts';
import { authenticationOf, breakablePath, enrichForDocs, notConfirmedSummary, operationAnchor } from '../../tools/docs/enrich.ts';
import { INTERNAL_WORDS, NOT_CONFIRMED, partnerWording, placeAssumptions } from '../../tools/docs/partner-language.ts';
import type { SupportContact } from '../../tools/docs/support.ts';

const support: SupportContact = { name: 'Partner desk', email: 'desk@partner.test', url: 'https://partner.test/help' };
const enrich = (api: ApiName) => enrichForDocs(api, loadBundle(api), { support });

function authOf(api: ApiName, operationId: string): string {
  const doc = loadBundle(api);
  const operation = operationsOf(doc).find(({ op }) => op.operationId === operationId);
  if (!operation) throw new Error(`${api} has no operation ${operationId}`);
  return authenticationOf(doc, operation);
}

/** Every string a Redoc page shows from the spec (x- extensions are not shown). */
function shownTexts(node: unknown, out: string[] = []): string[] {
  if (typeof node === 'string') out.push(node);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) if (!key.startsWith('x-')) shownTexts(value, out);
  }
  return out;
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

describe('partner language', () => {
  it('names the published documentation, never "the seed"', () => {
    expect(partnerWording("Size limits are not shown (seed 8); far above the seed's examples.")).toBe(
      "Size limits are not shown (published documentation, section 8); far above the published documentation's examples.",
    );
    expect(partnerWording('The seed shows x; not shown in the seed; see seed 4.5.')).toBe(
      'The published documentation shows x; not shown in the published documentation; see section 4.5 of the published documentation.',
    );
  });

  it.each(API_NAMES)('%s: the page shows no internal word and no license marker', (api) => {
    const doc = enrich(api);
    const offending = shownTexts(doc).filter((text) => INTERNAL_WORDS.some((word) => word.test(text)));
    expect(offending).toEqual([]);
    // The check finds them in the bundle as it is.
    expect(shownTexts(loadBundle(api)).some((text) => INTERNAL_WORDS.some((word) => word.test(text)))).toBe(true);
  });

  it('places a schema assumption on every operation that uses the schema, and the info ones on the API', () => {
    const doc = loadBundle('fleet');
    const { byOperation, apiWide } = placeAssumptions(doc, collectAssumptions('fleet', doc));
    const whats = (id: string) => (byOperation.get(id) ?? []).map((a) => a.what);
    const vehicleFields = collectAssumptions('fleet', doc).find((a) => a.pointer === '/components/schemas/Vehicle')!.what;
    expect(whats('listVehicles')).toContain(vehicleFields); // through VehicleList -> Vehicle
    expect(whats('getVehicle')).toContain(vehicleFields);
    expect(whats('getVehicle').some((w) => w.includes('Different filters combine'))).toBe(false);
    expect(apiWide.map((a) => a.pointer).sort()).toEqual(['', '/info', '/info']);
  });
});

describe('enrichForDocs', () => {
  it.each(API_NAMES)('%s: the description opens with the operations, each linked to its section', (api) => {
    const doc = enrich(api);
    const [nav, blank, header] = String(doc.info.description).split('\n');
    expect(nav).toMatch(/^\[← All Logistics Partner APIs\]\(index\.html\)/);
    expect(nav).toContain(`[YAML](specs/${api}.yaml) · [JSON](specs/${api}.json)`);
    expect(blank).toBe('');
    expect(header).toBe('| Operation | Authentication |');
    for (const { op, method, path } of operationsOf(doc)) {
      const link = `<a href="${operationAnchor(op)}"><code class="lp-path">${method.toUpperCase()} ${breakablePath(path)}</code></a><br>${op.summary}`;
      expect(doc.info.description).toContain(`| ${link} |`);
      expect(op.description).toMatch(/^\*\*Authentication:\*\* /);
    }
  });

  it('writes a path to break only after a slash, and copy as it is', () => {
    expect(breakablePath('/vehicles/{vehicleNumber}')).toBe('<span>/</span><wbr><span>vehicles/</span><wbr><span>{vehicleNumber}</span>');
    expect(breakablePath('/v1/load-milestone-events').replace(/<[^>]+>/g, '')).toBe('/v1/load-milestone-events');
  });

  it.each(API_NAMES)('%s: an operation collapses its assumptions into one line that says how many', (api) => {
    const doc = enrich(api);
    const { byOperation } = placeAssumptions(loadBundle(api), collectAssumptions(api, loadBundle(api)));
    for (const { op } of operationsOf(doc)) {
      const count = byOperation.get(op.operationId)?.length ?? 0;
      const details = /<details class="lp-not-confirmed">\n<summary>([^<]*)<\/summary>([\s\S]*?)<\/details>/.exec(op.description);
      if (count === 0) {
        expect(details, op.operationId).toBeNull();
        continue;
      }
      expect(details?.[1], op.operationId).toBe(notConfirmedSummary(count));
      expect(details![2]!.split(`**${NOT_CONFIRMED}:**`).length - 1, op.operationId).toBe(count);
    }
    expect(notConfirmedSummary(1)).toBe('1 point not confirmed by the published documentation');
  });

  it.each(API_NAMES)("%s: the servers name the partner's base URL first, then the local mock and sandbox", (api) => {
    const doc = enrich(api);
    const bundle = loadBundle(api);
    const holders = (d: Record<string, any>) => [d, ...Object.values<Record<string, any>>(d.paths), ...operationsOf(d).map(({ op }) => op)];
    const shown = holders(doc).flatMap((h) => h.servers ?? []);
    expect(shown.length).toBeGreaterThan(0);
    for (const [i, original] of holders(bundle).entries()) {
      if (!original.servers) continue;
      const servers = holders(doc)[i]!.servers;
      const [name, variable] = Object.entries<any>(original.servers[0].variables)[0]!;
      expect(servers[0].url).toBe(`{${name}}`);
      expect(servers[0].description).toMatch(/at your base URL: the one you were given at onboarding \(LP_[A-Z_]+\)/);
      expect(servers[1]).toEqual({ url: variable.default, description: expect.stringMatching(/^Local option: the mock/) });
      expect(servers[2]).toEqual({
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:4020\/(svc|idp|fleet)$/),
        description: expect.stringMatching(/^Local option: the sandbox/),
      });
    }
    expect(JSON.stringify(shown)).not.toMatch(/default is the local mock/);
    // The bundle keeps the server the mock and the tools read.
    expect(bundle.servers[0].description).toMatch(/default is the local mock/);
  });

  it.each(API_NAMES)('%s: every assumption is stated once per operation it concerns, or for the API', (api) => {
    const doc = enrich(api);
    const count = collectAssumptions(api, loadBundle(api)).length;
    const marker = `**${NOT_CONFIRMED}:**`;
    const onOperations = operationsOf(doc).flatMap(({ op }) => op.description.split(marker).slice(1));
    const onApi = String(doc.info.description).split(marker).length - 1;
    expect(onApi + new Set(onOperations.map((text) => text.split('\n')[0])).size).toBe(count);
  });

  it('puts the expired_in warning on the operations that involve a token, and not on the fleet API', () => {
    const noted = (api: ApiName) =>
      operationsOf(enrich(api))
        .filter(({ op }) => op.description.includes('Watch out: `expired_in`'))
        .map(({ op }) => op.operationId);
    expect(noted('token')).toContain('requestServiceToken');
    expect(noted('carriers')).toEqual(['recordLoadMilestoneEvent']);
    expect(noted('fleet')).toEqual([]);
  });

  it('sets the support contact, keeps a real licence and drops an UNLICENSED marker', () => {
    const doc = enrich('carriers');
    expect(doc.info.contact).toEqual({ name: 'Partner desk', email: 'desk@partner.test', url: 'https://partner.test/help' });
    expect(doc.info.license).toEqual(loadBundle('carriers').info.license);
    expect(doc.info.description).toContain('[desk@partner.test](mailto:desk@partner.test)');
    const withLicense = (license: object) => ({ ...loadBundle('carriers'), info: { ...loadBundle('carriers').info, license } });
    expect(enrichForDocs('carriers', withLicense({ name: 'UNLICENSED' }), { support }).info.license).toBeUndefined();
    expect(enrichForDocs('carriers', withLicense({ name: 'MIT', identifier: 'MIT' }), { support }).info.license).toEqual({
      name: 'MIT',
      identifier: 'MIT',
    });
  });

  it('leaves the bundle it was given unchanged', () => {
    const original = loadBundle('fleet');
    const copy = structuredClone(original);
    enrichForDocs('fleet', original, { support });
    expect(original).toEqual(copy);
  });
});
