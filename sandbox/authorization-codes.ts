// Authorization codes of the code grant: single-use, short-lived, bound to the client,
// the redirect URI and (when sent) the PKCE S256 challenge.
import { createHash, randomBytes } from 'node:crypto';
import type { SandboxClock } from './clock.ts';

export const CODE_LIFETIME_SECONDS = 600; // RFC 6749 section 4.1.2 recommends at most 10 minutes

export type CodeGrant = {
  clientId: string;
  redirectUri: string;
  scope: string;
  user: string;
  codeChallenge?: string;
  expiresAt: number;
  used: boolean;
};

export type Redemption =
  | { ok: true; grant: CodeGrant }
  | { ok: false; reason: 'unknown' | 'expired' | 'replayed'; grant?: CodeGrant };

export class AuthorizationCodes {
  private readonly codes = new Map<string, CodeGrant>();

  constructor(private readonly clock: SandboxClock) {}

  issue(grant: Omit<CodeGrant, 'expiresAt' | 'used'>, lifetimeSeconds = CODE_LIFETIME_SECONDS): string {
    const code = randomBytes(24).toString('base64url');
    this.codes.set(code, { ...grant, expiresAt: this.clock.now() + lifetimeSeconds * 1000, used: false });
    return code;
  }

  /** Marks the code used; a second redemption reports 'replayed'. */
  redeem(code: string, allowReplay = false): Redemption {
    const grant = this.codes.get(code);
    if (!grant) return { ok: false, reason: 'unknown' };
    if (grant.used && !allowReplay) return { ok: false, reason: 'replayed', grant };
    grant.used = true;
    if (this.clock.now() >= grant.expiresAt) return { ok: false, reason: 'expired', grant };
    return { ok: true, grant };
  }
}

/** RFC 7636 S256: BASE64URL(SHA256(code_verifier)) must equal the code_challenge. */
export function verifierMatchesChallenge(verifier: string, challenge: string): boolean {
  return createHash('sha256').update(verifier).digest('base64url') === challenge;
}
