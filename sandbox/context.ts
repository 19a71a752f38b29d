// Everything a route needs, built once per sandbox: credentials, clock, stores, fleet and
// validators, the one mutation (if any) this process was started with, and the seams its fault replaced.
import type { SandboxClock } from './clock.ts';
import type { BatchedStderr } from './log-stream.ts';
import type { SandboxCredentials } from './config.ts';
import type { AuthorizationCodes } from './authorization-codes.ts';
import type { EventStore } from './event-store.ts';
import type { FleetIndex } from './fleet-index.ts';
import type { MutationId } from './mutations.ts';
import type { SeamReplacements } from './seams.ts';
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
  /** Named in health and logs; what it changes is its fault's (sandbox/faults/), installed when the app is built. */
  mutation: MutationId | undefined;
  /** Filled by the fault, read through seam() (sandbox/seams.ts). */
  seams: SeamReplacements;
  logStream: BatchedStderr;
};
