// Authorization codes of the code grant: single-use, short-lived, bound to the client,
// the redirect URI and (when sent) the PKCE S256 challenge.
//
// Bounded: codes are purged a lifetime after they expire (until then a late exchange is told
// "expired", not "invalid"), and at most maxCodes are outstanding. Codes all live equally long,
// so insertion order is expiry order and purging only ever looks at the oldest: O(1) per code.
import { createHash, randomBytes } from 'node:crypto';
import type { SandboxClock } from './clock.ts';

export const CODE_LIFETIME_SECONDS = 600; // RFC 6749 section 4.1.2 recommends at most 10 minutes
export const DEFAULT_MAX_CODES = 100_000;

export type CodeGrant = {
  clientId: string;
  redirectUri: string;
  scope: string;
  user: string;
  codeChallenge?: string;
  expiresAt: number;
  used: boolean;
};

export type Redemption = { ok: true; grant: CodeGrant } | { ok: false; reason: 'unknown' | 'expired' | 'replayed'; grant?: CodeGrant };

/** issue() refused: maxCodes are outstanding and none has expired; the oldest expires in retryAfterSeconds. */
export type CodesFull = { full: true; retryAfterSeconds: number };

export class AuthorizationCodes {
  private readonly codes = new Map<string, CodeGrant>();

  constructor(
    private readonly clock: SandboxClock,
    private readonly maxCodes = DEFAULT_MAX_CODES,
  ) {}

  issue(grant: Omit<CodeGrant, 'expiresAt' | 'used'>, lifetimeSeconds = CODE_LIFETIME_SECONDS): string | CodesFull {
    const now = this.clock.now();
    this.purge(now);
    if (this.codes.size >= this.maxCodes) {
      const [oldestCode, oldest] = this.codes.entries().next().value!;
      // Evict the oldest if it has expired; a live code is never dropped.
      if (oldest.expiresAt > now) return { full: true, retryAfterSeconds: Math.max(1, Math.ceil((oldest.expiresAt - now) / 1000)) };
      this.codes.delete(oldestCode);
    }
    const code = randomBytes(24).toString('base64url');
    this.codes.set(code, { ...grant, expiresAt: now + lifetimeSeconds * 1000, used: false });
    return code;
  }

  /** Marks the code used; a second redemption reports 'replayed'. */
  redeem(code: string): Redemption {
    this.purge(this.clock.now());
    const grant = this.codes.get(code);
    if (!grant) return { ok: false, reason: 'unknown' };
    if (grant.used) return { ok: false, reason: 'replayed', grant };
    grant.used = true;
    if (this.clock.now() >= grant.expiresAt) return { ok: false, reason: 'expired', grant };
    return { ok: true, grant };
  }

  get size(): number {
    return this.codes.size;
  }

  /** Drops codes that expired more than a lifetime ago, oldest first (Map keeps insertion order). */
  private purge(now: number): void {
    for (const [code, grant] of this.codes) {
      if (grant.expiresAt + CODE_LIFETIME_SECONDS * 1000 > now) break;
      this.codes.delete(code);
    }
  }
}

/** RFC 7636 S256: BASE64URL(SHA256(code_verifier)) must equal the code_challenge. */
export function verifierMatchesChallenge(verifier: string, challenge: string): boolean {
  return createHash('sha256').update(verifier).digest('base64url') === challenge;
}
