// The table of injected contract violations: for each mutation of sandbox/mutations.ts (the catalogue partners and
// the suite read), its fault: where it applies and what it changes (sandbox/faults/fault.ts). One fault per id.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import type { MutationId } from '../mutations.ts';
import type { Fault } from './fault.ts';
import { FLEET_ACCESS_FAULTS, FLEET_GET_FAULTS, FLEET_LIST_FAULTS } from './fleet.ts';
import { IDENTITY_PROVIDER_FAULTS } from './identity-provider.ts';
import { MILESTONE_FAULTS } from './milestones.ts';
import { SERVICE_TOKEN_FAULTS } from './service-token.ts';

/** The faults by area, as written; an id in two of them would silently win in the merged table, so it is refused. */
export const FAULT_GROUPS: ReadonlyArray<Partial<Record<MutationId, Fault>>> = [
  SERVICE_TOKEN_FAULTS,
  IDENTITY_PROVIDER_FAULTS,
  MILESTONE_FAULTS,
  FLEET_ACCESS_FAULTS,
  FLEET_LIST_FAULTS,
  FLEET_GET_FAULTS,
];

const twice = FAULT_GROUPS.flatMap(Object.keys).filter((id, index, ids) => ids.indexOf(id) !== index);
if (twice.length > 0) throw new Error(`sandbox/faults: more than one fault for ${twice.join(', ')}`);

// Typed as complete: a mutation without a fault does not compile.
export const FAULTS: Readonly<Record<MutationId, Fault>> = {
  ...SERVICE_TOKEN_FAULTS,
  ...IDENTITY_PROVIDER_FAULTS,
  ...MILESTONE_FAULTS,
  ...FLEET_ACCESS_FAULTS,
  ...FLEET_LIST_FAULTS,
  ...FLEET_GET_FAULTS,
};

/** Puts the sandbox's mutation, if any, in place: after the root hooks and body parsers, before any route. */
export function installFault(app: FastifyInstance, context: SandboxContext): void {
  if (context.mutation !== undefined) FAULTS[context.mutation].install(app, context);
}
