// One run of Redocly Respect (`redocly respect`, the CLI the kit lints and bundles with) on one published Arazzo file:
// the target's LP_* variables in its environment and nothing else of ours (Respect reads `inputs.env` from there), the
// other inputs on its command line, its requests over the kit's connections (respect-connections.ts), its JSON log
// written into a private directory for the caller to redact. Its own HAR is not asked for (see har.ts).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../../spec-core/apis.ts';
import { REDOCLY_CLI, redoclyEnv, withoutEndOfLifeNotice } from '../../spec-core/redocly.ts';
import { LP_VARIABLES, withoutLpVariables } from '../../config/environment.ts';
import type { TargetEnv } from '../../tools/targets.ts';

/** What Respect's JSON log (`--json-output`) holds, as far as the runner reads it. */
export interface RespectLog {
  files: Record<string, { executedWorkflows: Array<{ workflowId: string; executedSteps: RespectStep[] }> }>;
}

export interface RespectStep {
  stepId: string;
  request?: { method: string; url: string; headers?: Record<string, string>; body?: unknown };
  /** `size` is the body's length in bytes (0 for an empty body, which Respect records as `{}`). */
  response?: { statusCode: number; body?: unknown; headers?: Record<string, string>; time?: number; size?: number };
  checks: Array<{ name: string; passed: boolean; message?: string; condition?: string; severity?: string }>;
}

export interface RespectRun {
  /** The parsed JSON log; undefined when Respect wrote none (it could not start, or was stopped). */
  log: RespectLog | undefined;
  /** Its stdout and stderr, without Redocly's Node.js end-of-life notice (not yet redacted). */
  output: string;
  /** Its exit code; null when it was stopped for taking longer than the timeout. */
  code: number | null;
  timedOut: boolean;
}

export interface RespectOptions {
  /** The published Arazzo file. */
  file: string;
  /** The private directory for its raw JSON log. */
  rawDir: string;
  env: TargetEnv;
  /** Inputs other than `env` (a milestone's time, a state): not secret, so they travel on the command line. */
  inputs: Record<string, string>;
  /** Respect's time per request; the whole run may take ten times as long. */
  requestTimeoutMs: number;
}

/**
 * Our environment without any LP_* variable or Respect setting of the caller's, then every LP_* variable of the target
 * (set to '' when the target has none, so that no `.env` file Respect finds can fill it in behind our back).
 */
export function respectEnv(target: TargetEnv): NodeJS.ProcessEnv {
  const base = withoutLpVariables(redoclyEnv());
  for (const name of Object.keys(base)) if (name.startsWith('REDOCLY_CLI_RESPECT_')) delete base[name];
  return { ...base, NO_COLOR: '1', ...Object.fromEntries(LP_VARIABLES.map((name) => [name, target[name] ?? ''])) };
}

/**
 * Respect's checks that the runner makes instead, with the contract suite's judge (step-conformance.ts): whether a
 * status, a content type and a body conform. Switched off, not to warnings: Respect's schema check treats every object
 * as closed (its ajv has `defaultUnevaluatedProperties: false`), so an answer with one more field than documented
 * would read as a failure in its log while the suite, as JSON Schema, lets a server add fields.
 */
export const CHECKS_JUDGED_BY_THE_SUITE = ['STATUS_CODE_CHECK', 'CONTENT_TYPE_CHECK', 'SCHEMA_CHECK'] as const;

/**
 * Loaded before the CLI: Respect's requests over the kit's connections (its proxies). It is TypeScript, so tsx's
 * CommonJS hook loads it: tsx's ESM loader would sit in the way of every module the CLI loads (2 s more per run on
 * two busy cores, against half a second).
 */
const CONNECTIONS_PRELOAD = fileURLToPath(new URL('./respect-connections.ts', import.meta.url));

/** Node's arguments: the preload, then the CLI's. */
export function respectArgs(options: RespectOptions, jsonFile: string): string[] {
  return [
    '--require',
    'tsx/cjs',
    '--require',
    CONNECTIONS_PRELOAD,
    REDOCLY_CLI,
    'respect',
    options.file,
    '--severity',
    CHECKS_JUDGED_BY_THE_SUITE.map((check) => `${check}=off`).join(','),
    '--input',
    JSON.stringify(options.inputs),
    '--json-output',
    jsonFile,
    '--max-fetch-timeout',
    String(options.requestTimeoutMs),
    '--execution-timeout',
    String(options.requestTimeoutMs * 10),
  ];
}

/** How long a Respect process may live: it stops itself at --execution-timeout; this is the backstop should it hang. */
export const respectDeadlineMs = (requestTimeoutMs: number) => requestTimeoutMs * 10 + 30_000;

/** Runs Respect once; never rejects: a run that failed to produce a log says so in `log: undefined` and its output. */
export function runRespect(options: RespectOptions): Promise<RespectRun> {
  const jsonFile = join(options.rawDir, 'respect.json');
  const timeout = respectDeadlineMs(options.requestTimeoutMs);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      respectArgs(options, jsonFile),
      { cwd: repoRoot, env: respectEnv(options.env), timeout, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const failed = error as (NodeJS.ErrnoException & { code?: number | string; killed?: boolean }) | null;
        resolve({
          log: existsSync(jsonFile) ? (JSON.parse(readFileSync(jsonFile, 'utf8')) as RespectLog) : undefined,
          output: withoutEndOfLifeNotice(`${stdout}${stderr}`),
          code: failed ? (typeof failed.code === 'number' ? failed.code : null) : 0,
          timedOut: failed?.killed === true,
        });
      },
    );
  });
}
