// Every operation of the seed document (section 4) is in the bundles with its method, path, server, headers and security.
import { describe, expect, it } from 'vitest';
import { resolveRef } from '../../spec-core/pointer.ts';
import { seedSections } from '../../spec-core/seed-sections.ts';
import { bundles, operation, operations } from './bundles.ts';

/** The seed's endpoints, from the project's record of the seed (openapi/seed-gaps.yaml): [section, method, server
 * variable, path]. */
const seedEndpoints = Object.entries(seedSections()).flatMap(([section, { endpoint }]) => {
  const match = endpoint ? /^([A-Z]+) \{(\w+)\}(\S*)$/.exec(endpoint) : null;
  return match ? [[section, match[1]!.toLowerCase(), match[2]!, match[3]!] as const] : [];
});
const ofSection = (section: string) => operations().filter((o) => o.operation['x-seed-section'] === section);

const securityOf = (id: string) => {
  const { api, operation: op } = operation(id);
  return op.security ?? bundles[api].security ?? [];
};

describe('seed operations', () => {
  it('has one operation for each endpoint of the seed, and no other', () => {
    expect(seedEndpoints.length).toBe(6);
    expect(operations().length).toBe(seedEndpoints.length);
    for (const o of operations()) expect(Object.keys(seedSections()), o.operation.operationId).toContain(o.operation['x-seed-section']);
  });

  it.each(seedEndpoints)('seed %s: %s {%s}%s is one operation of the specs, naming the section', (section, method, variable, path) => {
    expect(ofSection(section)).toHaveLength(1);
    const found = ofSection(section)[0]!;
    expect([found.method, found.path]).toEqual([method, path]);
    expect(found.servers).toHaveLength(1);
    const [server] = found.servers;
    expect(server?.url).toBe(`{${variable}}`);
    expect(server?.variables[variable].default).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('every operation has a camelCase operationId, a tag, a summary and a description', () => {
    for (const { operation: op } of operations()) {
      expect(op.operationId).toMatch(/^[a-z]+[A-Za-z]*$/);
      expect(op.tags?.length, op.operationId).toBeGreaterThan(0);
      expect(op.summary, op.operationId).toMatch(/^[A-Z]/);
      expect(op.description?.length, op.operationId).toBeGreaterThan(40);
    }
  });
});

describe('security (seed 5)', () => {
  const schemes = (api: 'token' | 'carriers' | 'fleet') => bundles[api].components.securitySchemes;

  it('the subscription key is an apiKey in the Ocp-Apim-Subscription-Key header', () => {
    for (const api of ['token', 'carriers'] as const) {
      expect(schemes(api).SubscriptionKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'Ocp-Apim-Subscription-Key' });
    }
  });

  it('OAuth 2.0 has the client credentials and authorization code flows at the seed paths, absolute on the default servers', () => {
    // Absolute, because tools resolve a relative flow URL against the carriers server: a {base_url} path prefix would be
    // dropped and the authorize URL would name the service's host. Each URL is its operation's default server + path.
    const at = (id: string) => {
      const { path, servers } = operation(id);
      const [server] = servers;
      return `${Object.values<{ default: string }>(server?.variables ?? {})[0]?.default}${path}`;
    };
    expect(schemes('carriers').OAuth2).toMatchObject({
      type: 'oauth2',
      flows: {
        clientCredentials: { tokenUrl: at('requestServiceToken') },
        authorizationCode: { authorizationUrl: at('requestAuthorization'), tokenUrl: at('requestIdentityProviderToken') },
      },
    });
    expect(at('requestAuthorization')).toBe('http://127.0.0.1:4010/oauth2/default/v1/authorize');
  });

  it('the fleet key is an apiKey in the API-Key header', () => {
    expect(schemes('fleet').FleetApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'API-Key' });
  });

  it('the service token endpoint needs no credential header (4.1 shows only Content-Type)', () => {
    expect(securityOf('requestServiceToken')).toEqual([]);
  });

  it('the identity provider token endpoint requires the subscription key (4.2)', () => {
    expect(securityOf('requestIdentityProviderToken')).toEqual([{ SubscriptionKey: [] }]);
  });

  it('the milestone operation requires a bearer token and accepts the subscription key with it (4.4, 5.2)', () => {
    const security = securityOf('recordLoadMilestoneEvent');
    expect(security).toContainEqual({ OAuth2: [] });
    expect(security).toContainEqual({ OAuth2: [], SubscriptionKey: [] });
    expect(security.every((requirement: object) => 'OAuth2' in requirement)).toBe(true);
  });

  it('both fleet operations require the API-Key header (4.5, 4.6)', () => {
    expect(securityOf('listVehicles')).toEqual([{ FleetApiKey: [] }]);
    expect(securityOf('getVehicle')).toEqual([{ FleetApiKey: [] }]);
  });
});

describe('request bodies (seed 4.1, 4.2, 4.4)', () => {
  const bodyOf = (id: string) => operation(id).operation.requestBody;

  it('token requests are form-encoded', () => {
    for (const id of ['requestServiceToken', 'requestIdentityProviderToken']) {
      expect(Object.keys(bodyOf(id).content)).toEqual(['application/x-www-form-urlencoded']);
    }
  });

  it('the service token request has grant_type client_credentials, client_id and client_secret', () => {
    const schema = resolveRef(bundles.token, bodyOf('requestServiceToken').content['application/x-www-form-urlencoded'].schema);
    expect(schema.required).toEqual(['grant_type', 'client_id', 'client_secret']);
    expect(schema.properties.grant_type.const).toBe('client_credentials');
  });

  it('the identity provider takes both grants with the seed fields', () => {
    const schema = resolveRef(bundles.token, bodyOf('requestIdentityProviderToken').content['application/x-www-form-urlencoded'].schema);
    const grants = schema.oneOf.map((s: object) => resolveRef(bundles.token, s));
    const byGrant = Object.fromEntries(grants.map((g: any) => [g.properties.grant_type.const, g.required]));
    expect(byGrant.client_credentials).toEqual(['grant_type', 'client_id', 'client_secret', 'scope']);
    expect(byGrant.authorization_code).toEqual(['grant_type', 'client_id', 'client_secret', 'redirect_uri', 'code']);
  });

  it('the authorization redirect takes client_id, response_type=code, redirect_uri, scope (required) and state (optional)', () => {
    const params = Object.fromEntries(operation('requestAuthorization').operation.parameters.map((p: any) => [p.name, p]));
    for (const name of ['client_id', 'response_type', 'redirect_uri', 'scope']) {
      expect(params[name], name).toMatchObject({ in: 'query', required: true });
    }
    expect(params.response_type.schema.const).toBe('code');
    expect(params.state).toMatchObject({ in: 'query', required: false });
    const redirect = operation('requestAuthorization').operation.responses['302'];
    expect(redirect.headers.Location.required).toBe(true);
  });

  it('the milestone body is JSON with load_id, milestone_type and a UTC date-time event_time', () => {
    const schema = resolveRef(bundles.carriers, bodyOf('recordLoadMilestoneEvent').content['application/json'].schema);
    expect(Object.keys(schema.properties)).toEqual(['load_id', 'milestone_type', 'event_time']);
    expect(schema.properties.event_time).toMatchObject({ type: 'string', format: 'date-time' });
    const utc = new RegExp(schema.properties.event_time.pattern);
    expect(utc.test('2026-11-22T14:30:00Z')).toBe(true);
    expect(utc.test('2026-11-22T14:30:00.123Z')).toBe(true);
    expect(utc.test('2026-11-22T14:30:00+02:00')).toBe(false);
    expect(utc.test('2026-11-22 14:30:00')).toBe(false);
  });
});

describe('errors (seed 7)', () => {
  it('every API operation documents 400, 401, 403, 404, 429 and 500; the redirect documents 400, 429 and 500', () => {
    for (const { operation: op } of operations()) {
      const expected = op.operationId === 'requestAuthorization' ? ['400', '429', '500'] : ['400', '401', '403', '404', '429', '500'];
      expect(Object.keys(op.responses), op.operationId).toEqual(expect.arrayContaining(expected));
    }
  });

  it('token endpoints answer 400 with the RFC 6749 error body', () => {
    for (const id of ['requestServiceToken', 'requestIdentityProviderToken']) {
      const schema = operation(id).operation.responses['400'].content['application/json'].schema;
      expect(schema.$ref).toBe('#/components/schemas/OAuthError');
    }
  });
});
