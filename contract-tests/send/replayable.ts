// Which requests the transport may send again when the first try's outcome is unknown: those that record nothing.
import { isSafeMethod } from '../../spec-core/http-methods.ts';

/** Grants whose token request spends something: an authorization code is single-use, a refresh token may rotate. */
const SPENDING_GRANTS = new Set(['authorization_code', 'refresh_token']);
/** `{base_url}/token` and `{auth_url}/oauth2/default/v1/token`; no other operation's path ends so. */
const TOKEN_PATH = /\/token\/?$/;

/**
 * Whether the request records nothing, so that sending it again is harmless when the first try's outcome is unknown:
 * every GET (the authorize redirect included), HEAD and OPTIONS, and a POST to a token endpoint, which issues a token or
 * refuses, unless it spends a code or a refresh token. Anything else (a milestone) is a write. `body`: the request's
 * body, when the caller has read it already.
 */
export async function isReplayable(request: Request, body?: Uint8Array): Promise<boolean> {
  if (isSafeMethod(request.method)) return true;
  if (request.method !== 'POST' || !TOKEN_PATH.test(new URL(request.url).pathname)) return false;
  return !spendsSomething(body ? new TextDecoder().decode(body) : await request.clone().text());
}

/** JSON's whitespace, then an object's opening brace. */
const JSON_OBJECT = /^[ \t\n\r]*\{/;

/** A form or JSON body that carries a code or a refresh token, or asks for a grant that spends one. */
function spendsSomething(body: string): boolean {
  const form = new URLSearchParams(body);
  let json: Record<string, unknown> = {};
  // Only a body that opens an object can name a field; a form is not handed to JSON.parse, whose throw (a stack trace
  // each time) cost a live run's token requests more than the rest of this check.
  if (JSON_OBJECT.test(body))
    try {
      const parsed: unknown = JSON.parse(body);
      if (parsed && typeof parsed === 'object') json = parsed as Record<string, unknown>;
    } catch {
      // not JSON after all: the form fields say it
    }
  const grants = [...form.getAll('grant_type'), json.grant_type];
  return (
    grants.some((grant) => typeof grant === 'string' && SPENDING_GRANTS.has(grant)) ||
    ['code', 'refresh_token'].some((field) => form.has(field) || field in json)
  );
}
