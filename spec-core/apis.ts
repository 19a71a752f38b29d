// The APIs of the kit and where their bundles are written (dist/openapi/<api>.{yaml,json} by `npm run bundle`).
import { fileURLToPath } from 'node:url';

export const API_NAMES = ['token', 'carriers', 'fleet'] as const;
export type ApiName = (typeof API_NAMES)[number];

export const repoRoot = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');

export const bundleDir = `${repoRoot}/dist/openapi`;

export const bundlePath = (api: ApiName, ext: 'yaml' | 'json'): string => `${bundleDir}/${api}.${ext}`;
