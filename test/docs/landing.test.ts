// The landing page, the 404 page and the support contact, built from the real bundles and a config file.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { API_NAMES } from '../../spec-core/apis.ts';
import { allAssumptions, uniqueAssumptions } from '../../spec-core/assumptions.ts';
import { loadBundles } from '../../spec-core/bundles.ts';
import { SANDBOX_DEFAULTS } from '../../sandbox/config.ts';
import { clearForRebuild, hasPostmanCollection } from '../../tools/docs/build.ts';
import { landingPage, notFoundPage, POSTMAN_COLLECTION, QUICK_START } from '../../tools/docs/landing.ts';
import { INTERNAL_WORDS } from '../../tools/docs/partner-language.ts';
import { DEFAULT_DOCS_CONFIG, readSupportContact, type SupportContact } from '../../tools/docs/support.ts';

const support: SupportContact = { name: 'Partner desk', email: 'desk@partner.test', note: 'Send the requestId.' };
const bundles = loadBundles();
const page = (postman = false) => landingPage(bundles, { builtFrom: 'from test', support, postman });
const dir = mkdtempSync(`${tmpdir()}/docs-config-`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const textOf = (html: string) => html.replace(/<style>[\s\S]*?<\/style>/, '').replace(/<[^>]+>/g, ' ');

describe('landing page', () => {
  it('has a quick start against the sandbox\'s default port and public fleet key', () => {
    const html = page();
    expect(html).toContain('npm install @logistics-partner/api');
    expect(html).toContain('npm run sandbox');
    expect(QUICK_START.curl).toContain('http://127.0.0.1:4020/fleet/vehicles/V-000006');
    for (const sample of [QUICK_START.curl, QUICK_START.typescript]) expect(sample).toContain(SANDBOX_DEFAULTS.LP_FLEET_API_KEY);
    expect(html).toContain('<code data-sample="typescript">import { createFleetClient }');
  });

  it('links every API page and its spec downloads, and the Postman collection only when it was built', () => {
    const html = page();
    for (const api of API_NAMES) {
      for (const href of [`${api}.html`, `specs/${api}.yaml`, `specs/${api}.json`]) expect(html).toContain(`href="${href}"`);
    }
    expect(html).not.toContain(POSTMAN_COLLECTION);
    expect(page(true)).toContain(`href="${POSTMAN_COLLECTION}"`);
  });

  it('summarises the assumptions as not confirmed, one item each, without internal words', () => {
    const html = page();
    expect(html).toContain('Not confirmed by the published documentation');
    expect(html.match(/<ul class="assumptions">([\s\S]*?)<\/ul>/)?.[1]?.match(/<li>/g)).toHaveLength(uniqueAssumptions(allAssumptions()).length);
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

describe('a rebuild next to the Postman collection', () => {
  it('keeps the collection another step wrote, clears the rest, and knows whether the collection is there', () => {
    const out = `${dir}/site`;
    mkdirSync(`${out}/postman`, { recursive: true });
    mkdirSync(`${out}/specs`, { recursive: true });
    writeFileSync(`${out}/index.html`, 'old');
    expect(hasPostmanCollection(out)).toBe(false);
    writeFileSync(`${out}/${POSTMAN_COLLECTION}`, '{}');
    clearForRebuild(out);
    expect(readdirSync(out)).toEqual(['postman']);
    expect(hasPostmanCollection(out)).toBe(true);
  });
});

describe('support contact', () => {
  const config = (support: unknown) => {
    const file = `${dir}/docs.config.json`;
    writeFileSync(file, JSON.stringify({ support }));
    return file;
  };

  it('reads the default config, and the environment overrides email and url', () => {
    const fromFile = readSupportContact(DEFAULT_DOCS_CONFIG, {});
    expect(fromFile.name).not.toBe('');
    expect(fromFile.email ?? fromFile.url).toBeTruthy();
    const overridden = readSupportContact(DEFAULT_DOCS_CONFIG, { DOCS_SUPPORT_EMAIL: 'ops@partner.test', DOCS_SUPPORT_URL: 'https://partner.test/' });
    expect([overridden.email, overridden.url]).toEqual(['ops@partner.test', 'https://partner.test/']);
  });

  it('refuses a contact nobody can reach, naming the field', () => {
    expect(() => readSupportContact(config({ name: 'Desk' }), {})).toThrow(/support needs an email or a url/);
    expect(() => readSupportContact(config({ name: 'Desk', email: 'not-an-address' }), {})).toThrow(/support\.email "not-an-address"/);
    expect(() => readSupportContact(config({ name: 'Desk', url: 'javascript:alert(1)' }), {})).toThrow(/support\.url/);
    expect(() => readSupportContact(config({ email: 'a@b.test' }), {})).toThrow(/support\.name is missing/);
    expect(() => readSupportContact(`${dir}/missing.json`, {})).toThrow(/docs config .*missing\.json/);
    expect(() => readSupportContact(DEFAULT_DOCS_CONFIG, { DOCS_SUPPORT_EMAIL: 'nobody' })).toThrow(/^DOCS_SUPPORT_EMAIL "nobody" is not an email address$/);
  });
});
