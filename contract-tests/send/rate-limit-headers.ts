// What an answer says of the limit on its origin's requests: Retry-After (RFC 9110 10.2.3), Okta's X-Rate-Limit-Limit,
// -Remaining and -Reset (epoch seconds; also as X-RateLimit-*), and the IETF httpapi draft's RateLimit-Policy and
// RateLimit fields (draft-ietf-httpapi-ratelimit-headers-08 to -10: lists of items such as `"default";q=100;w=60` and
// `"default";r=50;t=30`), leniently: the older drafts' RateLimit-Limit, -Remaining and -Reset, `RateLimit: limit=100,
// remaining=50, reset=30` and `RateLimit-Policy: 100;w=60` are read too. A field that does not parse is left out, never
// an error: the headers are the server's hint to pace by, not what the suite judges.

/** What the headers of one answer say; every part optional. */
export interface RateLimitNote {
  /** A quota and its window (RateLimit-Policy), so a rate the origin sustains: limit ÷ window. */
  quota?: { limit: number; windowMs: number };
  /** A limit without a window (Okta's X-Rate-Limit-Limit: its window is learned from the steps of the reset). */
  limit?: number;
  /** Requests left before `resetAt`. */
  remaining?: number;
  /** When the quota is whole again, in ms since the epoch on this machine's clock. */
  resetAt?: number;
  /** The reset as the server wrote it, in epoch seconds (Okta's form): its steps are the window. */
  resetEpochSeconds?: number;
  /** Retry-After, in ms from now. */
  retryAfterMs?: number;
}

/** Seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Larger numbers are not a count a server means: the field is malformed. */
const MOST = 1e12;
/** A reset above this many seconds is an epoch time (Okta, GitHub), below it a delay (the IETF drafts). */
const EPOCH_SECONDS = 1e9;
/** A server clock this far from ours (by its Date header) is corrected for; nearer, Date's whole seconds would only add noise. */
const SKEW_MS = 2_000;

const count = (text: string | undefined): number | undefined => {
  const trimmed = text?.trim().replace(/^"(.*)"$/, '$1');
  if (trimmed === undefined || !/^\d+(?:\.\d+)?$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value <= MOST ? value : undefined;
};

/** Splits at `separator` outside double quotes (a structured field's list members, or an item's parameters). */
function splitOutside(text: string, separator: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"' && text[i - 1] !== '\\') quoted = !quoted;
    else if (char === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim()).filter(Boolean);
}

/** One member of a list: its value (a policy's name, a number, or `key=value` of an old draft's dictionary) and parameters. */
interface Member {
  value: string;
  params: Map<string, string>;
}

function members(field: string | null): Member[] {
  if (!field || field.length > 4_096) return [];
  return splitOutside(field, ',').map((member) => {
    const [value = '', ...params] = splitOutside(member, ';');
    const named = params.map((param) => {
      const at = param.indexOf('=');
      return at === -1
        ? ([param.toLowerCase(), '?1'] as const)
        : ([param.slice(0, at).trim().toLowerCase(), param.slice(at + 1).trim()] as const);
    });
    return { value, params: new Map(named) };
  });
}

/** The value of `key=value` in an old draft's dictionary form. */
const dictionaryValue = (list: Member[], key: string) =>
  count(list.find((m) => m.value.toLowerCase().startsWith(`${key}=`))?.value.slice(key.length + 1));

/** Only quotas counted in requests pace requests (not content-bytes); the drafts' default unit is requests. */
const countsRequests = (member: Member) => (member.params.get('qu') ?? 'requests').replace(/"/g, '') === 'requests';

/** The quota of RateLimit-Policy (or of the old RateLimit-Limit with `;w=`) that allows the fewest requests a second. */
function strictestQuota(policy: Member[], oldLimit: Member[]): RateLimitNote['quota'] {
  const quotas = [...policy, ...oldLimit].filter(countsRequests).flatMap((member) => {
    const limit = count(member.params.get('q')) ?? count(member.value);
    const window = count(member.params.get('w'));
    return limit !== undefined && window !== undefined && window > 0 ? [{ limit, windowMs: window * 1000 }] : [];
  });
  return quotas.sort((a, b) => a.limit / a.windowMs - b.limit / b.windowMs)[0];
}

/** The item of the RateLimit field with the fewest requests left (draft -08 on: `"name";r=50;t=30`). */
function leastRemaining(limits: Member[]): { remaining: number; resetSeconds?: number } | undefined {
  const items = limits.flatMap((member) => {
    const remaining = count(member.params.get('r'));
    if (remaining === undefined) return [];
    const resetSeconds = count(member.params.get('t'));
    return [resetSeconds === undefined ? { remaining } : { remaining, resetSeconds }];
  });
  return items.sort((a, b) => a.remaining - b.remaining)[0];
}

/** A reset, as epoch seconds or seconds from now, on this machine's clock (corrected by Date when the clocks differ). */
function resetOf(seconds: number, headers: Headers, now: number): Pick<RateLimitNote, 'resetAt' | 'resetEpochSeconds'> {
  if (seconds <= EPOCH_SECONDS) return { resetAt: now + seconds * 1000 };
  const date = Date.parse(headers.get('date') ?? '');
  const skew = Number.isNaN(date) || Math.abs(date - now) < SKEW_MS ? 0 : date - now;
  return { resetAt: seconds * 1000 - skew, resetEpochSeconds: seconds };
}

const firstOf = (headers: Headers, ...names: string[]) => names.map((name) => headers.get(name)).find((value) => value !== null) ?? null;

/** What the answer's headers say of its origin's limit; an empty note when they say nothing readable. */
export function readRateLimit(headers: Headers, now = Date.now()): RateLimitNote {
  const note: RateLimitNote = {};
  const retryAfter = retryAfterMs(headers.get('retry-after'), now);
  if (retryAfter !== undefined) note.retryAfterMs = retryAfter;
  const draft = members(headers.get('ratelimit'));
  const quota = strictestQuota(members(headers.get('ratelimit-policy')), members(headers.get('ratelimit-limit')));
  if (quota) note.quota = quota;
  const limit =
    count(firstOf(headers, 'x-rate-limit-limit', 'x-ratelimit-limit', 'ratelimit-limit') ?? undefined) ?? dictionaryValue(draft, 'limit');
  if (limit !== undefined && !quota) note.limit = limit;
  const current = leastRemaining(draft);
  const remaining =
    current?.remaining ??
    count(firstOf(headers, 'x-rate-limit-remaining', 'x-ratelimit-remaining', 'ratelimit-remaining') ?? undefined) ??
    dictionaryValue(draft, 'remaining');
  if (remaining !== undefined) note.remaining = Math.floor(remaining);
  const reset =
    current?.resetSeconds ??
    count(firstOf(headers, 'x-rate-limit-reset', 'x-ratelimit-reset', 'ratelimit-reset') ?? undefined) ??
    dictionaryValue(draft, 'reset');
  if (reset !== undefined) Object.assign(note, resetOf(reset, headers, now));
  return note;
}

/** True when the note says anything the pacing can use. */
export const saysAnything = (note: RateLimitNote) => Object.keys(note).length > 0;
