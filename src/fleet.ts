// Types of the Fleet API, generated from its spec: import type { paths, components } from '@logistics-partner/api/fleet'.
export type { paths, components, operations } from '../generated/fleet.js';
