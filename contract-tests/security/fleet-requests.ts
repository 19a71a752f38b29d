// GET requests to the fleet API with the configured key, for probes whose path may not be an address of the spec
// (a trailing slash, an extra segment). Addresses of the spec go through the contract fetch and are checked like any
// other answer; the rest are sent plainly, since no operation documents them, and only their status and body count.
import { exchange, findOperation } from '../support/contract-fetch.ts';
import { joinUrl, required, target } from '../support/target.ts';

const TIMEOUT_MS = 15_000;

export async function fleetGet(path: string): Promise<{ status: number; bodyText: string }> {
  const url = joinUrl(required(target, 'LP_FLEET_BASE_URL'), path);
  const init = { headers: { 'API-Key': required(target, 'LP_FLEET_API_KEY') }, redirect: 'manual' as const };
  if (findOperation(target, 'GET', url)) {
    const { response, bodyText } = await exchange(url, init);
    return { status: response.status, bodyText };
  }
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  return { status: response.status, bodyText: await response.text() };
}
