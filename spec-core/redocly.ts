// How the kit runs the Redocly CLI (lint, bundle, build-docs): the copy in node_modules, run by this Node, with its
// telemetry and update check switched off, so that no run reaches the internet.
import { repoRoot } from './apis.ts';

export const REDOCLY_CLI = `${repoRoot}/node_modules/@redocly/cli/lib/index.js`;

/** The environment of a Redocly CLI run: ours, with telemetry and the update notice off. */
export const redoclyEnv = (): NodeJS.ProcessEnv => ({ ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' });
