// Everything a route needs, built once per sandbox: credentials, clock, stores, fleet and
// validators, plus the one mutation (if any) this process was started with.
import type { SandboxClock } from './clock.ts';
import type { BatchedStderr } from './log-stream.ts';
import type { SandboxCredentials } from './config.ts';
import type { AuthorizationCodes } from './authorization-codes.ts';
import type { EventStore } from './event-store.ts';
import type { FleetIndex } from './fleet-index.ts';
import type { MutationId } from './mutations.ts';
import type { SpecValidators } from './spec-validation.ts';
import type { TokenStore } from './token-store.ts';

export type SandboxContext = {
  credentials: SandboxCredentials;
  clock: SandboxClock;
  tokens: TokenStore;
  codes: AuthorizationCodes;
  events: EventStore;
  fleet: FleetIndex;
  validators: SpecValidators;
  mutation: MutationId | undefined;
  logStream: BatchedStderr;
};

/** True when this process runs with the given injected contract violation. */
export function mutated(context: SandboxContext, id: MutationId): boolean {
  return context.mutation === id;
}
