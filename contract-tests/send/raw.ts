// GET requests to the fleet API with the configured key, for probes whose path may not be an address of the spec
// (a trailing slash, an extra segment). Addresses of the spec go through the contract fetch and are checked like any
// other answer; the rest are sent unchecked, since no operation documents them, and only their status and body count.
import { exchange, findOperation, sendOrRecord } from './fetch.ts';
import { joinUrl, required, target } from './target.ts';

export async function fleetGet(path: string): Promise<{ status: number; bodyText: string }> {
  const url = joinUrl(required(target, 'LP_FLEET_BASE_URL'), path);
  const init = { headers: { 'API-Key': required(target, 'LP_FLEET_API_KEY') }, redirect: 'manual' as const };
  if (findOperation(target, 'GET', url)) {
    const { response, bodyText } = await exchange(url, init);
    return { status: response.status, bodyText };
  }
  // Through the same transport (timeouts, retries, throttling, the bound on requests in flight), unchecked.
  const { response } = await sendOrRecord(new Request(url, init));
  return { status: response.status, bodyText: await response.text() };
}
