// config/environment.ts and tools/targets.ts: the variables, the target names and the resolver's refusals.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import {
  LP_VARIABLES,
  RUN_VARIABLES,
  parseLpLines,
  parseTargetName,
  readTargetVariables,
  SECRET_VARIABLES,
  withoutLpVariables,
} from '../../config/environment.ts';
import { resolveTarget } from '../../tools/targets.ts';

describe('environment', () => {
  it('refuses an unknown target name, naming where it came from and the allowed names', () => {
    expect(parseTargetName('sandbox', '--target')).toBe('sandbox');
    expect(() => parseTargetName('prod', '--target')).toThrow('--target must be one of mock, sandbox, live, got "prod"');
  });

  it('reads the target variables trimmed, drops blanks and anything not listed', () => {
    const env = readTargetVariables({ LP_BASE_URL: ' http://127.0.0.1:1/svc ', LP_SCOPE: '  ', LP_UNKNOWN: 'x', PATH: '/bin' });
    expect(env).toEqual({ LP_BASE_URL: 'http://127.0.0.1:1/svc' });
  });

  it("lists every secret variable among the target variables, and a child server gets none of the caller's LP_*", () => {
    for (const name of SECRET_VARIABLES) expect(LP_VARIABLES).toContain(name);
    expect(withoutLpVariables({ LP_CLIENT_SECRET: 's', HOME: '/home/x' })).toEqual({ HOME: '/home/x' });
  });

  it('.env.example offers exactly the target variables, in the same order, then only run settings the kit reads', () => {
    const offered = [...readFileSync(join(repoRoot, '.env.example'), 'utf8').matchAll(/^(LP_\w+)=/gm)].map((match) => match[1]!);
    expect(offered.slice(0, LP_VARIABLES.length)).toEqual(LP_VARIABLES);
    const settings = offered.slice(LP_VARIABLES.length);
    expect(settings.length).toBeGreaterThan(0);
    for (const name of settings) expect(Object.keys(RUN_VARIABLES), `${name} in .env.example`).toContain(name);
  });

  it('parses LP_* lines with quotes and comments, ignoring other lines', () => {
    expect(parseLpLines('LP_A=1\nmock ready\nLP_B=***  # from your environment\nLP_C="a b"\nX=2\n')).toEqual({
      LP_A: '1',
      LP_B: '***',
      LP_C: 'a b',
    });
  });
});

describe('resolveTarget', () => {
  it('refuses a live target without any base URL, naming the variables and .env.example', async () => {
    const saved = { ...process.env };
    for (const name of LP_VARIABLES) delete process.env[name];
    try {
      await expect(resolveTarget('live')).rejects.toThrow(
        /needs at least one of LP_BASE_URL, LP_AUTH_URL, LP_FLEET_BASE_URL .*\.env\.example/,
      );
    } finally {
      process.env = saved;
    }
  });

  it('refuses a mutation for a target other than the sandbox', async () => {
    await expect(resolveTarget('mock', { mutation: 'x' })).rejects.toThrow('a mutation needs the sandbox target');
  });

  it("takes a live target's settings from the environment, starting nothing", async () => {
    const saved = { ...process.env };
    process.env.LP_FLEET_BASE_URL = 'http://127.0.0.1:9/fleet';
    try {
      const live = await resolveTarget('live');
      expect(live.env.LP_FLEET_BASE_URL).toBe('http://127.0.0.1:9/fleet');
      await live.stop();
    } finally {
      process.env = saved;
    }
  });
});
