// The client's pools of kept-alive connections in tests: settings that go direct whatever the environment says, and when
// a connection can take the next request. undici frees it a turn of the event loop after its answer completed, so a test
// that wants it reused waits for the pool to count it free (or closed), never for a pause.
import { expect } from 'vitest';
import { POLL } from '../../config/test-waits.ts';
import type { ProxySettings } from '../../src/connections.ts';

/** Proxy settings that send everything direct, whatever HTTP_PROXY and the like say. */
export const DIRECT: ProxySettings = { httpProxy: undefined, httpsProxy: undefined, noProxy: 'localhost,127.0.0.1,[::1]' };

interface PoolCounts {
  connected: number;
  free: number;
}
type AgentStats = { stats: Record<string, PoolCounts | undefined> };

/** The undici Agent under `dispatcher`: itself, or the one an EnvHttpProxyAgent sends loopback requests through. */
function agentOf(dispatcher: unknown): AgentStats {
  if (dispatcher && typeof dispatcher === 'object' && 'stats' in dispatcher) return dispatcher as AgentStats;
  const direct = Object.getOwnPropertySymbols(dispatcher ?? {}).find((symbol) => symbol.description === 'no proxy agent');
  if (direct) return agentOf((dispatcher as Record<symbol, unknown>)[direct]);
  throw new TypeError('untilConnectionsFree: not an undici 7 Agent (or EnvHttpProxyAgent): it counts no connections');
}

/** Resolves once every connection `dispatcher` holds to `origin` is free for a request, or closed. */
export async function untilConnectionsFree(dispatcher: unknown, origin: string): Promise<void> {
  const agent = agentOf(dispatcher);
  const busy = () => {
    const counts = agent.stats[origin];
    return counts ? counts.connected - counts.free : 0;
  };
  await expect.poll(busy, { ...POLL, message: `connections to ${origin} still busy` }).toBe(0);
}
