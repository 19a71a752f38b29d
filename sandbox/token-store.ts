// Issued bearer tokens with their expiry, so only tokens this sandbox issued and that are
// still valid (by the sandbox clock) authorize a request.
import { randomBytes } from 'node:crypto';
import type { SandboxClock } from './clock.ts';

export const TOKEN_LIFETIME_SECONDS = 3600;
const MAX_TOKENS = 100_000; // bound memory under load; expired tokens are dropped first

type IssuedToken = { clientId: string; scope: string; expiresAt: number; code?: string };

export type TokenCheck = 'valid' | 'expired' | 'unknown';

export class TokenStore {
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(private readonly clock: SandboxClock) {}

  issue(grant: { clientId: string; scope: string; lifetimeSeconds: number; code?: string }): string {
    if (this.tokens.size >= MAX_TOKENS) this.dropExpired();
    const token = randomBytes(32).toString('base64url');
    this.tokens.set(token, {
      clientId: grant.clientId,
      scope: grant.scope,
      expiresAt: this.clock.now() + grant.lifetimeSeconds * 1000,
      code: grant.code,
    });
    return token;
  }

  check(token: string): TokenCheck {
    const issued = this.tokens.get(token);
    if (!issued) return 'unknown';
    return this.clock.now() < issued.expiresAt ? 'valid' : 'expired';
  }

  clientOf(token: string): string | undefined {
    return this.tokens.get(token)?.clientId;
  }

  /** RFC 6749 section 4.1.2: a replayed code revokes the tokens issued from it. */
  revokeIssuedFromCode(code: string): void {
    for (const [token, issued] of this.tokens) if (issued.code === code) this.tokens.delete(token);
  }

  private dropExpired(): void {
    const now = this.clock.now();
    for (const [token, issued] of this.tokens) if (issued.expiresAt <= now) this.tokens.delete(token);
    // Still full: forget the oldest (Map keeps insertion order).
    for (const token of this.tokens.keys()) {
      if (this.tokens.size < MAX_TOKENS) break;
      this.tokens.delete(token);
    }
  }
}
