// The service token response is spelled `expired_in` (seed 2.3), and the identity provider's is RFC 6749's `expires_in`.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { components as TokenComponents } from '../../generated/token.ts';
import { resolveRef } from '../../spec-core/pointer.ts';
import { bundles, operation } from './bundles.ts';

const responseSchema = (id: string) =>
  resolveRef(bundles.token, operation(id).operation.responses['200'].content['application/json'].schema);

describe('service token response (seed 2.3, 4.1, 8)', () => {
  const schema = responseSchema('requestServiceToken');

  it('requires access_token, token_type and expired_in', () => {
    expect(schema.required).toEqual(['access_token', 'token_type', 'expired_in']);
  });

  it('has no expires_in property', () => {
    expect(Object.keys(schema.properties)).not.toContain('expires_in');
  });

  it('token_type is exactly Bearer', () => {
    expect(schema.properties.token_type.const).toBe('Bearer');
  });

  it('expired_in is an integer number of seconds, at most one hour', () => {
    expect(schema.properties.expired_in).toMatchObject({ type: 'integer', minimum: 1, maximum: 3600 });
  });

  it('says loudly that the field is spelled expired_in', () => {
    expect(schema.description).toMatch(/spelled `expired_in`/);
    expect(operation('requestServiceToken').operation.description).toMatch(/expired_in/);
  });

  it('is typed with expired_in: number and without expires_in in the generated types', () => {
    type Response = TokenComponents['schemas']['ServiceTokenResponse'];
    expectTypeOf<Response['expired_in']>().toEqualTypeOf<number>();
    expectTypeOf<Response['token_type']>().toEqualTypeOf<'Bearer'>();
    expectTypeOf<Response>().not.toHaveProperty('expires_in');
  });
});

describe('identity provider token response (seed 4.2, 5.4)', () => {
  const schema = responseSchema('requestIdentityProviderToken');

  it('follows RFC 6749 section 5.1 with expires_in, and says it is an assumption', () => {
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['access_token', 'token_type', 'expires_in', 'scope']));
    expect(schema.required).toEqual(['access_token', 'token_type']);
    expect(schema['x-assumption'].seed).toBe('5.4');
  });

  it('is typed with an optional expires_in', () => {
    type Response = TokenComponents['schemas']['IdentityProviderTokenResponse'];
    expectTypeOf<Response['expires_in']>().toEqualTypeOf<number | undefined>();
  });
});
