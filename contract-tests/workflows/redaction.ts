// No credential leaves a workflow run: the configured secrets, every token and code the target issued (found in
// Respect's raw log and HAR, and every code the redirect receiver got) are hidden by the run's one redactor
// (send/redact.ts over src/redact.ts: as is, URL- and form-encoded, JSON-escaped, base64, base64url, hex), and base
// URLs are named by their
// LP_* variable, so that a request can be read, and pasted, without a value of the partner's.
import type { TargetEnv } from '../../tools/targets.ts';
import { type Redactor, redactorFromEnvironment } from '../send/redact.ts';

/** Keys whose string values are issued credentials, wherever they appear in a log. */
const CREDENTIAL_KEYS = new Set(['access_token', 'refresh_token', 'id_token', 'token', 'code', 'authorization']);

/** Respect's own mask, not a value. */
const MASKED = /^\*+$/;

/** A value worth hiding: what Respect left unmasked, without the scheme word of an Authorization header. */
function credentialIn(value: string): string | undefined {
  const bare = value.replace(/^(Bearer|Basic)\s+/i, '').trim();
  return bare.length >= 4 && !MASKED.test(bare) ? bare : undefined;
}

/** Credentials in a URL's query (`code=...` of a redirect, `access_token=...`). */
function fromUrl(text: string): string[] {
  return [...text.matchAll(/[?&](?:code|access_token|id_token|refresh_token)=([^&#\s"]+)/g)].flatMap((m) => {
    const value = decodeURIComponent(m[1]!);
    return credentialIn(value) ? [value] : [];
  });
}

/** Every issued credential in a parsed log or HAR: values under credential keys, in HAR name/value pairs, in URLs. */
export function harvestCredentials(node: unknown, found: string[] = []): string[] {
  if (typeof node === 'string') found.push(...fromUrl(node));
  if (node === null || typeof node !== 'object') return found;
  const record = node as Record<string, unknown>;
  // HAR lists headers, query and form fields as { name, value }.
  if (typeof record.name === 'string' && typeof record.value === 'string' && CREDENTIAL_KEYS.has(record.name.toLowerCase())) {
    const value = credentialIn(record.value);
    if (value) found.push(value);
  }
  for (const [key, child] of Object.entries(record)) {
    if (typeof child === 'string' && CREDENTIAL_KEYS.has(key.toLowerCase())) {
      const value = credentialIn(child);
      if (value) found.push(value);
    }
    harvestCredentials(child, found);
  }
  return found;
}

/** The run's redactor (the target's secrets), plus `issued` (tokens and codes) as they are found. */
export function workflowRedactor(env: TargetEnv, issued: Iterable<string> = []): Redactor {
  const redactor = redactorFromEnvironment(env);
  for (const value of issued) redactor.add(value);
  return redactor;
}

const BASE_URL_VARIABLES = ['LP_BASE_URL', 'LP_AUTH_URL', 'LP_FLEET_BASE_URL'] as const;

/**
 * A URL of the run with its base URL named by the LP_* variable: `variable` when given (the server of the step's
 * operation: the mock serves all three from one origin), else the longest base URL it starts with.
 */
export function namedByVariable(url: string, env: TargetEnv, variable?: string): string {
  const candidates = variable ? [variable] : [...BASE_URL_VARIABLES].sort((a, b) => (env[b]?.length ?? 0) - (env[a]?.length ?? 0));
  for (const name of candidates) {
    const base = env[name as keyof TargetEnv]?.replace(/\/$/, '');
    if (base && url.startsWith(base)) return `$${name}${url.slice(base.length)}`;
  }
  return url;
}
