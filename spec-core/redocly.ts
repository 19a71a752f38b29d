// How the kit runs the Redocly CLI (lint, bundle, build-docs): the copy in node_modules, run by this Node, with its
// telemetry and update check switched off, so that no run reaches the internet.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { repoRoot } from './apis.ts';

export const REDOCLY_CLI = `${repoRoot}/node_modules/@redocly/cli/lib/index.js`;

/** The environment of a Redocly CLI run: ours, with telemetry and the update notice off. */
export const redoclyEnv = (): NodeJS.ProcessEnv => ({ ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' });

/** Runs the Redocly CLI with `args` in `cwd` (two minutes at most); rejects with its stderr on failure. */
export const runRedocly = (args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> =>
  promisify(execFile)(process.execPath, [REDOCLY_CLI, ...args], { cwd, env: redoclyEnv(), timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
