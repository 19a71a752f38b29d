// Types of the Carriers API, generated from its spec: import type { paths, components } from '@logistics-partner/api/carriers'.
export type { paths, components, operations } from '../generated/carriers.js';
