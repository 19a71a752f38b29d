// The specs' size limits (seed 8: size limits are not shown), probed on every operation of the registry whose
// operation or body schema carries such an x-assumption (operators/input-limits.ts): one request carries one value
// one character over the spec's limit, everything else valid, and records whether the server refused it as the
// x-assumption says; an array parameter also gets one value too many. Each probe picks a parameter where a server
// without that limit answers differently (a wrong secret is 401 invalid_client, an unknown code invalid_grant, an
// unknown filter value an empty list), so that only the limit gives the assumed refusal. A 5xx stays a violation; any
// other answer is a confirmed or contradicted assumption, never a failure of the default run. The oversize inputs of
// every kind are sent by the operators (property/operators.*.test.ts); this file reads the answers.
import { describe, expect, it } from 'vitest';
import { observeAssumption } from '../judge/assumptions.ts';
import { putValues } from '../operators/operator.ts';
import { type LimitProbe, limitProbes, oneOver } from '../operators/input-limits.ts';
import { jsonOf, statusClass } from '../judge/answers.ts';
import { redirectParameters, sameEndpoint } from '../send/authorization.ts';
import { CREDENTIALS } from '../model/credentials.ts';
import type { Exchange } from '../send/fetch.ts';
import { credentialValue, holding, reasonIfCannotSendKeeping, request } from '../send/model.ts';
import { specModel } from '../model/model-entries.ts';
import { specRoles } from '../model/operations.ts';
import type { Change } from '../send/parts.ts';
import { skipIf } from '../support/skips.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
const { target } = run;

/** Where an answer redirects to, when it is a redirect back to LP_REDIRECT_URI. */
function redirectBack({ response, request: sent }: Exchange): URL | undefined {
  const location = response.headers.get('location');
  const back = target.env.LP_REDIRECT_URI;
  if (statusClass(response.status) !== 3 || location === null || !back || !URL.canParse(location, sent.url)) return undefined;
  const url = new URL(location, sent.url);
  return sameEndpoint(url, new URL(back)) ? url : undefined;
}

/** The answer in a few words, for the report's evidence (no body: it could echo the over-long value; of a redirect
 * only its error, never a code). */
function answered(seen: Exchange): string {
  const back = redirectBack(seen);
  if (back) {
    const parameters = redirectParameters(back);
    const error = parameters.get('error');
    return `a redirect with ${error ? `error=${error}` : parameters.has('code') ? 'a code' : 'neither code nor error'}`;
  }
  const error = jsonOf(seen.bodyText)?.error;
  return `${seen.response.status}${typeof error === 'string' ? ` ${error}` : ''}`;
}

/**
 * The refusal the size-limit assumptions name, by the operation's role: a token endpoint answers 400 with the RFC 6749
 * error `invalid_request`; the authorization endpoint redirects back with `error=invalid_request` once the client and
 * redirect URI are known (RFC 6749 4.1.2.1), or shows its refusal page (400); any other operation answers 400.
 */
function refused(probe: LimitProbe, seen: Exchange): boolean {
  const { operationId } = probe.entry;
  if (specRoles().authorization.includes(operationId)) {
    const back = redirectBack(seen);
    return back ? redirectParameters(back).get('error') === 'invalid_request' : seen.response.status === 400;
  }
  if (specRoles().tokenEndpoints.includes(operationId))
    return seen.response.status === 400 && jsonOf(seen.bodyText)?.error === 'invalid_request';
  return seen.response.status === 400;
}

/** Sends the entry's valid request with the parameter holding `values`, and the optional credentials that are
 * configured (sent as the client sends them: an empty key would be a wrong one). */
async function sendWith(probe: LimitProbe, values: string[]): Promise<Exchange> {
  const { entry, parameter } = probe;
  const optional = entry.optional.filter((id) => CREDENTIALS[id].variables.every((name) => target.env[name]));
  const credentials = await Promise.all(optional.map(async (id) => [id, await credentialValue(run, id)] as const));
  const change: Change = (parts) =>
    putValues(
      credentials.reduce((next, [id, value]) => holding(next, CREDENTIALS[id], value), parts),
      parameter!,
      values,
    );
  // Its own valid value is never built (a code is not spent on a probe): the over-long one takes its place.
  return request(run, entry, change, parameter!.credential ? {} : { values: { [parameter!.name]: values[0]! } });
}

const PROBES = limitProbes(specModel()).map((probe) => {
  const what = probe.parameter ? `${probe.parameter.in} ${probe.parameter.name} one over its limit` : 'no parameter to probe';
  return [`${probe.entry.operationId}${probe.entry.variant === 'default' ? '' : ` (${probe.entry.variant})`}: ${what}`, probe] as const;
});

describe('size limits of the specs (x-assumptions of seed 8)', () => {
  it.for(PROBES)('%s', async ([, probe], ctx) => {
    const { entry, parameter, max, count, assumption } = probe;
    skipIf(run, ctx, [entry.operationId], probe.why, parameter && (await reasonIfCannotSendKeeping(run, entry, [parameter.name])));
    const ref = { api: assumption.api, pointer: assumption.pointer, match: assumption.what };
    const observe = async (values: string[], what: string) => {
      const seen = await sendWith(probe, values);
      expect(statusClass(seen.response.status), `${what} answered ${seen.response.status}`).not.toBe(5);
      observeAssumption(run, ref, refused(probe, seen), `${what} answered ${answered(seen)}`, seen);
    };
    // A value no server issued or holds: a server without the limit answers as for any unknown or wrong one.
    await observe([oneOver(max!, 'contract-probe-')], `${parameter!.name} of ${max! + 1} characters (limit ${max})`);
    if (count !== undefined)
      await observe(
        Array.from({ length: count + 1 }, (_, i) => `CONTRACT-${i}`),
        `${count + 1} ${parameter!.name} values (limit ${count})`,
      );
  });
});
