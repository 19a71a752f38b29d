// tools/mock.ts: the document the Prism mock serves, built from small documents here, and the settings it prints.
import { describe, expect, it } from 'vitest';
import { MOCK_PLACEHOLDERS, parseLpLines } from '../../config/environment.ts';
import { joinBundles, type OpenApiDocument, settingsLines } from '../../tools/mock.ts';

const doc = (paths: OpenApiDocument['paths'], extra: Partial<OpenApiDocument> = {}): OpenApiDocument => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths,
  ...extra,
});

describe('joinBundles', () => {
  it('copies document-level security onto operations without their own, and drops path-level servers', () => {
    const fleet = doc(
      { '/vehicles': { servers: [{ url: '{fleet_base_url}' }], get: { responses: {} }, post: { security: [], responses: {} } } },
      { security: [{ ApiKey: [] }], components: { securitySchemes: { ApiKey: { type: 'apiKey' } } } },
    );
    const token = doc({ '/token': { post: { responses: {} } } });
    const joined = joinBundles([fleet, token]);
    expect(Object.keys(joined.paths)).toEqual(['/vehicles', '/token']);
    expect(joined.paths['/vehicles']).not.toHaveProperty('servers');
    expect(joined.paths['/vehicles']!.get).toEqual({ responses: {}, security: [{ ApiKey: [] }] });
    expect(joined.paths['/vehicles']!.post).toEqual({ security: [], responses: {} });
    expect(joined.paths['/token']!.post).toEqual({ responses: {} });
    expect(joined).not.toHaveProperty('security');
  });

  it('refuses a path defined by two specs and a shared component that differs, naming them', () => {
    expect(() => joinBundles([doc({ '/a': {} }), doc({ '/a': {} })])).toThrow('path /a is defined by two specs');
    const withError = (description: string) => doc({}, { components: { schemas: { Error: { description } } } });
    expect(() => joinBundles([withError('x'), withError('x')])).not.toThrow();
    expect(() => joinBundles([withError('x'), withError('y')])).toThrow('component schemas/Error differs between specs');
  });
});

describe('settingsLines', () => {
  it('gives every setting a client needs: the three base URLs and the placeholder credentials', () => {
    const lines = settingsLines('http://127.0.0.1:4010');
    expect(parseLpLines(lines)).toEqual({
      LP_BASE_URL: 'http://127.0.0.1:4010',
      LP_AUTH_URL: 'http://127.0.0.1:4010',
      LP_FLEET_BASE_URL: 'http://127.0.0.1:4010',
      ...MOCK_PLACEHOLDERS,
    });
  });
});
