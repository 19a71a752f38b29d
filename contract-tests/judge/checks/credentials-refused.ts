// Security: wrong, missing or misplaced credentials are refused (seed 5), on every exchange, whichever check sent it.
// An accepted answer (2xx) of an operation must have come with every credential the operation requires, each the
// configured one (a bearer token: one the target issued, within its lifetime). A credential missing from its place but
// present elsewhere in the request (the query, another header) is the authentication matrix's note, not a verdict here;
// so is the fleet key replaced by a bearer token (an x-assumption of seed 5.3). Only targets that verify credentials.
import type { Exchange } from '../../send/fetch.ts';
import type { Finding } from '../../model/findings.ts';
import { CREDENTIALS, type CredentialId } from '../../model/credentials.ts';
import { specRegistry } from '../../model/operations.ts';
import type { RunContext } from '../context.ts';
import { type ExchangeCheck, violation } from '../exchange-check.ts';
import { basicOf, bearerOf, formOf, requestHeader, statusClassOf, valuesOf } from '../exchange-facts.ts';
import { PROMISES } from '../promises.ts';
import { LIFETIME_MARGIN_SECONDS } from './token-lifetime.ts';

/** The credentials the operation requires for the request's body shape (its grant type). */
function requiredCredentials(seen: Exchange): CredentialId[] {
  const entries = specRegistry().filter((e) => e.operationId === seen.operation?.operationId);
  const grant = valuesOf(formOf(seen), 'grant_type')[0];
  return (entries.find((e) => e.variant === grant) ?? entries[0])?.credentials ?? [];
}

/** What the request carried in a credential's place: a header's values, a form field's first value, HTTP Basic's. */
function sentValues(seen: Exchange, id: CredentialId): string[] | undefined {
  const where = CREDENTIALS[id].where;
  if (id === 'bearer') return bearerOf(seen) === undefined ? undefined : [bearerOf(seen)!];
  if (where.in === 'header')
    return requestHeader(seen, where.name)
      ?.split(',')
      .map((v) => v.trim());
  const form = valuesOf(formOf(seen), where.name)[0];
  if (form !== undefined) return [form];
  const basic = basicOf(seen);
  return basic ? [id === 'clientId' ? basic.id : basic.secret] : undefined;
}

/** Why the values are not the credential (undefined: one of them is). */
function wrongness(id: CredentialId, values: string[], seen: Exchange, context: RunContext): string | undefined {
  if (id !== 'bearer') return values.includes(context.env[CREDENTIALS[id].variables[0]!] ?? '\u0000') ? undefined : 'a wrong';
  const issued = context.tokens.get(values[0]!);
  if (!issued) return 'a bearer token it never issued, as';
  return context.ageSeconds(issued, seen.sentAt) > issued.lifetimeSeconds + LIFETIME_MARGIN_SECONDS ? 'an expired' : undefined;
}

/** The value sent is the configured credential followed by NUL characters only (none of its own characters changed). */
function nulPadded(id: CredentialId, values: string[], context: RunContext): boolean {
  const configured = id === 'bearer' ? undefined : context.env[CREDENTIALS[id].variables[0]!];
  return (
    configured !== undefined &&
    values.some((v) => v.length > configured.length && v.startsWith(configured) && /^\0+$/.test(v.slice(configured.length)))
  );
}

/** The configured value of the credential is somewhere else in the request (a place the spec does not document). */
function elsewhere(seen: Exchange, id: CredentialId, context: RunContext): boolean {
  const value = id === 'bearer' ? undefined : context.env[CREDENTIALS[id].variables[0]!];
  if (!value) return false;
  return seen.request.url.includes(encodeURIComponent(value)) || [...seen.request.headers.values()].some((v) => v.includes(value));
}

export const wrongCredentials: ExchangeCheck = {
  id: 'credentials-refused',
  promise: PROMISES.credentials,
  source: { security: 'wrong credentials refused' },
  clauses: ['security-credentials-refused'],
  operations: specRegistry()
    .filter((e) => e.credentials.length)
    .map((e) => e.operationId),
  statuses: '2xx',
  needs: 'verifiesCredentials',
  judge(seen, context) {
    if (!seen.operation || statusClassOf(seen) !== 2 || !context.capability.verifiesCredentials) return [];
    const findings: Finding[] = [];
    for (const id of requiredCredentials(seen)) {
      const name = CREDENTIALS[id].where.name;
      const values = sentValues(seen, id);
      if (values === undefined) {
        const bearerInstead = id === 'fleetApiKey' && bearerOf(seen) !== undefined;
        if (!elsewhere(seen, id, context) && !bearerInstead)
          findings.push(
            violation(wrongCredentials, `${seen.operation.operationId} answered ${seen.response.status} to a request without ${name}`),
          );
        continue;
      }
      const wrong = wrongness(id, values, seen, context);
      if (wrong && nulPadded(id, values, context))
        findings.push({
          ...violation(
            wrongCredentials,
            `${seen.operation.operationId} answered ${seen.response.status} to the configured ${name} followed by NUL characters`,
          ),
          verdict: 'note',
          message: `${seen.operation.operationId} accepted the configured ${name} followed by NUL characters, as a comparison that pads both values with zero bytes does (a constant-time compare; oidc-provider's): only a holder of the credential can send it, so it still guards the API: a note, not a violation`,
        });
      else if (wrong)
        findings.push(
          violation(wrongCredentials, `${seen.operation.operationId} answered ${seen.response.status} to a request with ${wrong} ${name}`),
        );
    }
    return findings;
  },
};
