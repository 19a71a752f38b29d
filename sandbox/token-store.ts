// Issued bearer tokens with their expiry, so only tokens this sandbox issued and that are
// still valid (by the sandbox clock) authorize a request.
//
// Bounded at maxTokens with O(1) eviction: tokens of one lifetime expire in the order they were
// issued, so one queue per lifetime (there are one or two) holds them in expiry order, and the
// token to drop is at the head of one of them: an expired one first, and a valid one only when
// none has expired (the one closest to expiry). Expired tokens are kept until then, so a request
// with one is told "expired", not "invalid".
import { randomBytes } from 'node:crypto';
import type { SandboxClock } from './clock.ts';
import { Fifo } from './fifo.ts';

export const TOKEN_LIFETIME_SECONDS = 3600;
export const DEFAULT_MAX_TOKENS = 100_000;

type IssuedToken = { clientId: string; scope: string; expiresAt: number; code?: string };

/** The configured client id's own string when the caller sent it, so stored tokens share one copy. */
export function sharedClientId(sent: unknown, configured: string): string {
  return sent === configured ? configured : String(sent);
}

export type TokenCheck = 'valid' | 'expired' | 'unknown';

export class TokenStore {
  private readonly tokens = new Map<string, IssuedToken>();
  /** Lifetime in ms -> its tokens in issue order (entries of revoked tokens are skipped when reached). */
  private readonly queues = new Map<number, Fifo<string>>();
  /** Code -> the tokens issued from it, for revocation on replay without a scan. */
  private readonly fromCode = new Map<string, string[]>();

  constructor(
    private readonly clock: SandboxClock,
    private readonly maxTokens = DEFAULT_MAX_TOKENS,
  ) {}

  issue(grant: { clientId: string; scope: string; lifetimeSeconds: number; code?: string }): string {
    while (this.tokens.size >= this.maxTokens && this.evictOne());
    const token = randomBytes(32).toString('base64url');
    const lifetimeMs = grant.lifetimeSeconds * 1000;
    this.tokens.set(token, { clientId: grant.clientId, scope: grant.scope, expiresAt: this.clock.now() + lifetimeMs, code: grant.code });
    let queue = this.queues.get(lifetimeMs);
    if (!queue) {
      queue = new Fifo();
      this.queues.set(lifetimeMs, queue);
    }
    queue.push(token);
    if (grant.code !== undefined) {
      const issued = this.fromCode.get(grant.code);
      if (issued) issued.push(token);
      else this.fromCode.set(grant.code, [token]);
    }
    return token;
  }

  check(token: string): TokenCheck {
    const issued = this.tokens.get(token);
    if (!issued) return 'unknown';
    return this.clock.now() < issued.expiresAt ? 'valid' : 'expired';
  }

  /** How long ago a known token was issued, in ms of the sandbox's clock (undefined for an unknown one). */
  ageMs(token: string, lifetimeSeconds: number): number | undefined {
    const issued = this.tokens.get(token);
    return issued ? this.clock.now() - (issued.expiresAt - lifetimeSeconds * 1000) : undefined;
  }

  clientOf(token: string): string | undefined {
    return this.tokens.get(token)?.clientId;
  }

  get size(): number {
    return this.tokens.size;
  }

  /** RFC 6749 section 4.1.2: a replayed code revokes the tokens issued from it. */
  revokeIssuedFromCode(code: string): void {
    for (const token of this.fromCode.get(code) ?? []) this.tokens.delete(token);
    this.fromCode.delete(code);
  }

  /** Drops the token that expires first: the head of the queue whose head expires soonest. */
  private evictOne(): boolean {
    let soonest: { queue: Fifo<string>; token: string; expiresAt: number } | undefined;
    for (const queue of this.queues.values()) {
      let token = queue.peek();
      // Heads already revoked are skipped (each at most once, so this stays O(1) amortised).
      while (token !== undefined && !this.tokens.has(token)) {
        queue.shift();
        token = queue.peek();
      }
      if (token === undefined) continue;
      const { expiresAt } = this.tokens.get(token)!;
      if (!soonest || expiresAt < soonest.expiresAt) soonest = { queue, token, expiresAt };
    }
    if (!soonest) return false;
    soonest.queue.shift();
    const { code } = this.tokens.get(soonest.token)!;
    this.tokens.delete(soonest.token);
    if (code !== undefined) {
      const rest = this.fromCode.get(code)?.filter((token) => token !== soonest.token) ?? [];
      if (rest.length > 0) this.fromCode.set(code, rest);
      else this.fromCode.delete(code);
    }
    return true;
  }
}
