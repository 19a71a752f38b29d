// A node:http server on 127.0.0.1 (port 0) that records every request and answers with a per-test handler, and a
// recording proxy built on it (what reached a server, and what it answered).
import { createServer, type IncomingHttpHeaders, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Handler = (request: RecordedRequest, response: ServerResponse, index: number) => void | Promise<void>;

export interface LoopbackServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  requests: RecordedRequest[];
  /**
   * Resolves once the server has received `count` requests in all (at once when it has), after the handler of the
   * last one was called: a test acts on that event (aborts, times out, counts), never after a pause.
   */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startLoopbackServer(handler: Handler): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res, requests.length - 1)).catch((error: unknown) => {
        res.writeHead(599).end(String(error));
      });
      for (const waiter of waiting.filter(({ count }) => count <= requests.length)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  });
  // A thousand calls at once open a thousand connections (carriers-client.test.ts). Node's default backlog of 511 let
  // the accept queue overflow while the machine was busy (npm test's steps side by side, two busy loops beside them),
  // and Linux then reset one connection: a POST that failed ECONNRESET, which the client rightly does not send again.
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 2048 }, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    received: (count) =>
      new Promise<void>((resolve) => {
        if (requests.length >= count) resolve();
        else waiting.push({ count, resolve });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An answer a recording proxy passed back: status, headers and body as text. */
export interface RecordedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RecordingProxy extends LoopbackServer {
  /** The answers, in the order of `requests` (an entry is missing while its answer is still on its way). */
  answers: RecordedAnswer[];
}

/** A loopback proxy in front of `upstream` that records every request it passes on and every answer it passes back. */
export async function startRecordingProxy(upstream: string): Promise<RecordingProxy> {
  const target = new URL(upstream);
  const answers: RecordedAnswer[] = [];
  const server = await startLoopbackServer(
    (recorded, outgoing, index) =>
      new Promise<void>((resolve) => {
        const forwarded = request(
          { host: target.hostname, port: target.port, method: recorded.method, path: recorded.url, headers: recorded.headers },
          (answer) => {
            const chunks: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => chunks.push(chunk));
            answer.on('end', () => {
              answers[index] = { status: answer.statusCode!, headers: answer.headers, body: Buffer.concat(chunks).toString('utf8') };
            });
            outgoing.writeHead(answer.statusCode!, answer.headers);
            answer.pipe(outgoing).on('finish', resolve);
          },
        );
        forwarded.on('error', () => {
          outgoing.destroy();
          resolve();
        });
        forwarded.end(recorded.body);
      }),
  );
  return { ...server, answers };
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** Ends the connection without an HTTP answer: the client sees a network error. */
export function dropConnection(response: ServerResponse): void {
  response.socket?.destroy();
}

export const VEHICLE = {
  customerNumber: 'C-100',
  vehicleNumber: 'V-1004',
  vin: '1FUJGLDR12LM12345',
  customerVehicleNumber: 'CV-7',
  licensePlate: 'ABC-123',
  domicileLocationNumber: '0042',
  domicileLocationName: 'Springfield',
  vehicleType: 'TRACTOR',
};
