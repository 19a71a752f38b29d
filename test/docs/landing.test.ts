// The landing page, the 404 page and the support contact, built from the real bundles and a config file.
import { describe, expect, it } from 'vitest';
import { API_NAMES } from '../../spec-core/apis.ts';
import { allAssumptions, uniqueAssumptions } from '../../spec-core/assumptions.ts';
import { loadBundles } from '../../spec-core/bundles.ts';
import { SANDBOX_DEFAULTS } from '../../sandbox/config.ts';
import { landingPage, notFoundPage, QUICK_START } from '../../tools/docs/landing.ts';
import { POSTMAN_DOWNLOADS } from '../../tools/postman/build-collection.ts';
import { INTERNAL_WORDS } from '../../tools/docs/partner-language.ts';
import type { SupportContact } from '../../tools/docs/support.ts';

const support: SupportContact = { name: 'Partner desk', email: 'desk@partner.test', note: 'Send the requestId.' };
const bundles = loadBundles();
const page = () => landingPage(bundles, { builtFrom: 'from test', support });

const textOf = (html: string) => html.replace(/<style>[\s\S]*?<\/style>/, '').replace(/<[^>]+>/g, ' ');

describe('landing page', () => {
  it("has a quick start against the sandbox's default port and public fleet key", () => {
    const html = page();
    expect(html).toContain('npm install @logistics-partner/api');
    expect(html).toContain('npm run sandbox');
    expect(QUICK_START.curl).toContain('http://127.0.0.1:4020/fleet/vehicles/V-000006');
    for (const sample of [QUICK_START.curl, QUICK_START.typescript]) expect(sample).toContain(SANDBOX_DEFAULTS.LP_FLEET_API_KEY);
    expect(html).toContain('<code data-sample="typescript">import { createFleetClient }');
  });

  it('links every API page, its spec downloads, the flows page, the Postman collection and its environments', () => {
    const html = page();
    for (const api of API_NAMES) {
      for (const href of [`${api}.html`, `specs/${api}.yaml`, `specs/${api}.json`]) expect(html).toContain(`href="${href}"`);
    }
    for (const { href } of POSTMAN_DOWNLOADS) expect(html).toContain(`href="${href}" download`);
    // The flows page, from the navigation and from the APIs.
    expect(html.match(/href="workflows\.html"/g)).toHaveLength(2);
  });

  it('summarises the assumptions as not confirmed, one item each, without internal words', () => {
    const html = page();
    expect(html).toContain('Not confirmed by the published documentation');
    expect(html.match(/<ul class="assumptions">([\s\S]*?)<\/ul>/)?.[1]?.match(/<li>/g)).toHaveLength(
      uniqueAssumptions(allAssumptions()).length,
    );
    expect(INTERNAL_WORDS.filter((word) => word.test(textOf(html)))).toEqual([]);
  });

  it('shows the support contact, here and on the 404 page', () => {
    for (const html of [page(), notFoundPage(support)]) {
      expect(html).toContain('<a href="mailto:desk@partner.test">desk@partner.test</a>');
      expect(html).toContain('Send the requestId.');
    }
    expect(notFoundPage(support)).toContain('href="index.html"');
  });
});
