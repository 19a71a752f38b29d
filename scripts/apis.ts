// The APIs of the kit and where their sources, bundles and generated types live.
import { fileURLToPath } from 'node:url';

export const API_NAMES = ['token', 'carriers', 'fleet'] as const;
export type ApiName = (typeof API_NAMES)[number];

export const repoRoot = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');

export const bundlePath = (api: ApiName, ext: 'yaml' | 'json'): string => `${repoRoot}/dist/openapi/${api}.${ext}`;
