// What each kind of target can do, declared once. A check that needs a missing capability is skipped with this text.
import type { TargetName } from './target.ts';

export interface Capability {
  /** The target rejects wrong secrets, garbage tokens and wrong keys (Prism only checks that a credential is present). */
  verifiesCredentials: boolean;
  /** The target answers from data: filters, sort, get-one, unknown and foreign vehicles, one-time codes. */
  hasDataSemantics: boolean;
  /** The suite may move the target's clock forward (the sandbox's POST /_sandbox/clock), to test expiry without waiting. */
  advancesClock: boolean;
}

const CAPABILITIES: Record<TargetName, Capability> = {
  mock: { verifiesCredentials: false, hasDataSemantics: false, advancesClock: false },
  sandbox: { verifiesCredentials: true, hasDataSemantics: true, advancesClock: true },
  live: { verifiesCredentials: true, hasDataSemantics: true, advancesClock: false },
};

const WHY_NOT: Record<keyof Capability, string> = {
  verifiesCredentials: 'the Prism mock accepts any credential value (it only checks that one is present)',
  hasDataSemantics: 'the Prism mock has no data: it answers every request with the documented example',
  advancesClock: 'its clock cannot be moved forward, and waiting out a token or code lifetime would take up to an hour',
};

export function capabilityOf(targetName: TargetName): Capability {
  return CAPABILITIES[targetName];
}

/** Skip reason when the target lacks the capability, else undefined. */
export function reasonIfCannot(targetName: TargetName, capability: keyof Capability): string | undefined {
  return CAPABILITIES[targetName][capability] ? undefined : `target "${targetName}" cannot: ${WHY_NOT[capability]}`;
}
