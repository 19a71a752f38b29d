// The credentials a request can carry, and where each travels. The specs name the security schemes (an apiKey's header,
// OAuth 2.0's bearer token); what they cannot say is written here once: which LP_* variable holds each value, whether it
// is a secret, and where the client password of the token endpoints goes (RFC 6749 2.3.1: client_id and client_secret
// as form fields, the seed's requests; HTTP Basic is the other channel the RFC allows).
import type { LpVariable } from '../../config/environment.ts';

/** A credential as it travels. `ClientPassword` is RFC 6749 2.3.1's client_id and client_secret. */
export type SchemeName = 'OAuth2' | 'SubscriptionKey' | 'FleetApiKey' | 'ClientPassword';
export type CredentialId = 'bearer' | 'subscriptionKey' | 'fleetApiKey' | 'clientId' | 'clientSecret';

export interface Credential {
  id: CredentialId;
  scheme: SchemeName;
  /** Where it travels in a valid request: a header (with a prefix before the value) or a form field. */
  where: { in: 'header'; name: string; prefix?: string } | { in: 'form'; name: string };
  /** The LP_* variables behind it (a bearer token is obtained with the client credentials). */
  variables: LpVariable[];
  /** Whether its value is a secret (never printed; near copies are redacted too). */
  secret: boolean;
}

export const CREDENTIALS: Record<CredentialId, Credential> = {
  bearer: {
    id: 'bearer',
    scheme: 'OAuth2',
    where: { in: 'header', name: 'Authorization', prefix: 'Bearer ' },
    variables: ['LP_BASE_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET'],
    secret: true,
  },
  subscriptionKey: {
    id: 'subscriptionKey',
    scheme: 'SubscriptionKey',
    where: { in: 'header', name: 'Ocp-Apim-Subscription-Key' },
    variables: ['LP_SUBSCRIPTION_KEY'],
    secret: true,
  },
  fleetApiKey: {
    id: 'fleetApiKey',
    scheme: 'FleetApiKey',
    where: { in: 'header', name: 'API-Key' },
    variables: ['LP_FLEET_API_KEY'],
    secret: true,
  },
  clientId: {
    id: 'clientId',
    scheme: 'ClientPassword',
    where: { in: 'form', name: 'client_id' },
    variables: ['LP_CLIENT_ID'],
    secret: false,
  },
  clientSecret: {
    id: 'clientSecret',
    scheme: 'ClientPassword',
    where: { in: 'form', name: 'client_secret' },
    variables: ['LP_CLIENT_SECRET'],
    secret: true,
  },
};

/** The credential a security scheme of the specs stands for (by the scheme's header, or OAuth 2.0's bearer token). */
export function credentialOfScheme(scheme: { type?: string; in?: string; name?: string }): CredentialId | undefined {
  if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect' || (scheme.type === 'http' && /bearer/i.test(String(scheme.name))))
    return 'bearer';
  if (scheme.type !== 'apiKey' || scheme.in !== 'header') return undefined;
  return Object.values(CREDENTIALS).find((c) => c.where.in === 'header' && c.where.name.toLowerCase() === scheme.name?.toLowerCase())?.id;
}

/** The credential a form field carries (client_id, client_secret), if any. */
export const credentialOfFormField = (name: string): CredentialId | undefined =>
  Object.values(CREDENTIALS).find((c) => c.where.in === 'form' && c.where.name === name)?.id;
