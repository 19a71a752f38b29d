// The workflows against an identity provider nobody here wrote: panva's oidc-provider (OpenID-certified) behind a
// gateway, with the sandbox behind the same gateway (contract-tests/fixtures/certified-identity-provider.ts). It sends
// a user who must sign in to its own login page (303, a relative Location) and, with PKCE required, redirects an
// authorize request without PKCE back with an error (RFC 9207's `iss` beside it). Either way no workflow fails: the
// authorization code flow is skipped, saying a person has to sign in, and the others pass.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCertifiedIdentityProvider } from '../../contract-tests/fixtures/certified-identity-provider.ts';
import { startSandbox, type TargetServer } from '../../contract-tests/runner/target-server.ts';
import { runWorkflows } from '../../contract-tests/workflows/run-workflows.ts';
import { freePort } from '../../tools/free-port.ts';

const work = mkdtempSync(join(tmpdir(), 'lp-workflows-idp-'));
let sandbox: TargetServer;
beforeAll(async () => {
  const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
  sandbox = await startSandbox({ sandboxArgs: ['--log-level', 'silent'], sandboxEnv: { LP_REDIRECT_URI: redirectUri } });
});
afterAll(async () => {
  await sandbox?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('an OpenID-certified identity provider that sends the user to sign in', () => {
  it.each(['optional', 'required'] as const)(
    'PKCE %s: no workflow fails; the authorization code flow is skipped, a person has to sign in',
    async (pkce) => {
      const provider = await startCertifiedIdentityProvider(sandbox.env as Record<string, string>, { pkce });
      let run: Awaited<ReturnType<typeof runWorkflows>>;
      try {
        run = await runWorkflows({ target: 'live', env: provider.env, outputDir: join(work, pkce) });
      } finally {
        await provider.close();
      }
      const failed = run.workflows.flatMap((w) =>
        w.steps.flatMap((s) => (s.outcome === 'failed' ? [`${w.workflowId} ${s.stepId}: ${s.broken.join('; ')}`] : [])),
      );
      expect(failed).toEqual([]);
      expect(run.workflows.map((w) => `${w.workflowId} ${w.outcome}`)).toEqual([
        'recordMilestoneWithServiceToken passed',
        'recordMilestoneWithIdentityProviderToken passed',
        'recordMilestoneWithAuthorizationCode skipped',
        'lookUpVehicleFromList passed',
      ]);
      const code = run.workflows[2]!;
      expect(code.reason).toMatch(
        /^the authorize endpoint answered 303 with a redirect elsewhere than LP_REDIRECT_URI.*: a person has to sign in and approve/,
      );
      // With PKCE required, the workflow's own request (no PKCE) was refused, and the one with PKCE sent to sign in.
      if (pkce === 'required')
        expect(code.reason).toContain(
          'when asked with PKCE (without it, the identity provider redirected back without a code (error=invalid_request))',
        );
      else expect(code.reason).not.toContain('PKCE');
      expect(run.exitCode).toBe(0);
    },
  );
});
