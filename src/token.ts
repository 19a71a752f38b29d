// Types of the Token API, generated from its spec: import type { paths, components } from '@logistics-partner/api/token'.
export type { paths, components, operations } from '../generated/token.js';
