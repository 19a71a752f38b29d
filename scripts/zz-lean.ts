import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import createClient, { createFinalURL, createQuerySerializer, defaultPathSerializer, mergeHeaders } from 'openapi-fetch';
import type { paths } from '../generated/carriers.ts';
import { createCarriersClient, createTokenProvider } from '../src/index.ts';
const EVENT = { load_id: 'L-1', milestone_type: 'PICKED_UP', event_time: '2024-05-01T12:00:00Z' } as const;
const C = JSON.stringify({ message: 'recorded' });
const server = createServer((q, r) => { q.resume(); q.on('end', () => { if (q.url === '/token') return r.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 't', token_type: 'Bearer', expired_in: 3600 })); r.writeHead(200, { 'content-type': 'application/json', 'content-length': String(C.length) }).end(C); }); });
await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const url = `${origin}/v1/load-milestone-events`;
const headers = { Authorization: 'Bearer x', 'Content-Type': 'application/json' };
const ours = createCarriersClient({ baseUrl: origin, clientId: 'b', clientSecret: 's' });
await ours.POST('/v1/load-milestone-events', { body: EVENT });
const tokens = createTokenProvider({ baseUrl: origin, clientId: 'b', clientSecret: 's' } as any);
await tokens.getToken();
const qs = createQuerySerializer(undefined);
async function lean(path: string, init: any) {
  const finalUrl = createFinalURL(path, { baseUrl: origin, params: init.params ?? {}, querySerializer: qs, pathSerializer: defaultPathSerializer });
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  const h = mergeHeaders(body === undefined ? {} : { 'Content-Type': 'application/json' }, undefined, init.headers, init.params?.header);
  h.set('Authorization', `Bearer ${await tokens.getToken()}`);
  const response = await fetch(finalUrl, { method: 'POST', headers: h, body, redirect: 'follow', signal: AbortSignal.timeout(30000) });
  if (!response.ok) throw new Error('x');
  const cl = response.headers.get('Content-Length');
  if (response.status === 204 || cl === '0') return { data: undefined, response };
  if (!cl) { const raw = await response.text(); return { data: raw ? JSON.parse(raw) : undefined, response }; }
  return { data: await response.json(), response };
}
const go = async (signal?: AbortSignal) => (await fetch(url, { method: 'POST', headers, body: JSON.stringify(EVENT), signal })).json();
const v: Record<string, () => Promise<unknown>> = {
  raw: () => go(),
  timeout: () => go(AbortSignal.timeout(30000)),
  lean: () => lean('/v1/load-milestone-events', { body: EVENT }),
  ours: () => ours.POST('/v1/load-milestone-events', { body: EVENT }),
};
const names = Object.keys(v);
const s: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]));
for (const f of Object.values(v)) for (let i = 0; i < 300; i++) await f();
for (let r = 0; r < 200; r++) for (let k = 0; k < names.length; k++) { const n = names[(k + r) % names.length]!; const f = v[n]!; for (let i = 0; i < 25; i++) { const t = performance.now(); await f(); s[n]!.push(performance.now() - t); } }
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
const base = med(s.raw!);
for (const k of names) console.log(k.padEnd(12), (med(s[k]!) * 1000).toFixed(1), (med(s[k]!) / base).toFixed(3));
server.closeAllConnections(); server.close();
