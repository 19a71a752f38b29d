// One sandbox port whose injected contract violation can be changed while it runs (`--mutations-switchable`):
// contract:mutation switches it between suite runs instead of starting a process per mutation. Each switch builds
// a fresh sandbox (new clock, tokens, codes and events), so nothing of one run can leak into the next; only the
// credentials and the port stay, which is what lets every run use the same LP_* settings.
// The switch route exists only on a sandbox started with the flag: a plain sandbox has no way to change behaviour.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { parseMutation, type MutationId } from './mutations.ts';
import { closeIdleConnections } from './idle-connections.ts';
import { DEFAULT_CONNECTION_LIMITS, REQUEST_ID_HEADER, type ConnectionLimits, type Sandbox } from './server.ts';

export const SWITCH_PATH = '/_sandbox/mutation';
/** `{"mutation": "<id>"}` or `{"mutation": null}` fits easily; anything larger is refused unread. */
const MAX_SWITCH_BODY_BYTES = 1024;

export type SwitchableSandbox = {
  server: Server;
  /** The sandbox that currently answers every API request. */
  current(): Sandbox;
  /** Replaces the running sandbox with a fresh one started with `mutation` (undefined: the correct sandbox). */
  switchTo(mutation: MutationId | undefined): Promise<void>;
  listen(port: number, host: string): Promise<void>;
  close(): Promise<void>;
};

type BuildSandbox = (mutation: MutationId | undefined) => Sandbox;

/**
 * `limits` are the sandbox's own connection limits (--headers-timeout and the rest): the inner Fastify app has no server
 * of its own here, so the outer server applies them, idle sweep included.
 */
export async function serveSwitchable(
  build: BuildSandbox,
  initial: Sandbox,
  limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS,
): Promise<SwitchableSandbox> {
  await initial.app.ready();
  let current = initial;
  // Switches run one after another; a request that arrives meanwhile is answered by the sandbox still in place.
  let switching: Promise<void> = Promise.resolve();

  const switchTo = (mutation: MutationId | undefined): Promise<void> => {
    const done = switching.then(async () => {
      const next = build(mutation);
      await next.app.ready();
      const previous = current;
      current = next;
      await previous.app.close();
      previous.context.logStream.flush();
      current.app.log.info({ mutation: mutation ?? null }, 'mutation switched; state reset');
    });
    // A failed switch leaves the previous sandbox in place and must not block the next one.
    switching = done.catch(() => {});
    return done;
  };

  const server = frontServer(limits, (request, response) => {
    if ((request.url ?? '').split('?')[0] === SWITCH_PATH) void handleSwitch(request, response, () => current, switchTo);
    else current.app.routing(request, response);
  });

  return {
    server,
    current: () => current,
    switchTo,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      }),
    close: async () => {
      await switching;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await current.app.close();
      current.context.logStream.flush();
    },
  };
}

/** The plain node:http server in front, with the sandbox's connection limits. */
function frontServer(limits: ConnectionLimits, handle: (request: IncomingMessage, response: ServerResponse) => void): Server {
  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // As in the sandbox's own server: Node checks the header and request timeouts this often.
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    handle,
  );
  server.maxConnections = limits.maxConnections;
  closeIdleConnections(server, limits.idleTimeoutMs);
  // Malformed HTTP never reaches a handler; answer it the way a plain Node server would, without a crash.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  return server;
}

function reply(response: ServerResponse, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    [REQUEST_ID_HEADER]: randomUUID(),
    ...headers,
  });
  response.end(JSON.stringify(body));
}

const refuse = (response: ServerResponse, status: number, message: string, headers?: Record<string, string>) =>
  reply(response, status, { statusCode: status, code: 'invalid_request', message }, headers);

/** GET: the active mutation. POST `{"mutation": id | null}`: switch to it with fresh state, answered once done. */
async function handleSwitch(
  request: IncomingMessage,
  response: ServerResponse,
  current: () => Sandbox,
  switchTo: (mutation: MutationId | undefined) => Promise<void>,
): Promise<void> {
  if (request.method === 'GET') return reply(response, 200, { mutation: current().context.mutation ?? null });
  if (request.method !== 'POST') return refuse(response, 405, `Use GET or POST on ${SWITCH_PATH}.`, { allow: 'GET, POST' });

  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_SWITCH_BODY_BYTES)
        return refuse(response, 413, `The body must be at most ${MAX_SWITCH_BODY_BYTES} bytes.`, { connection: 'close' });
      chunks.push(chunk);
    }
  } catch {
    return; // the client went away or timed out; there is no one to answer
  }

  let mutation: MutationId | undefined;
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    const requested = body !== null && typeof body === 'object' && 'mutation' in body ? body.mutation : undefined;
    if (requested !== null && typeof requested !== 'string')
      throw new Error('Send a JSON body {"mutation": "<id>"} or {"mutation": null}.');
    mutation = parseMutation(requested ?? undefined);
  } catch (error) {
    const message = error instanceof SyntaxError ? 'The body is not valid JSON.' : (error as Error).message;
    return refuse(response, 400, message);
  }
  try {
    await switchTo(mutation);
  } catch (error) {
    current().app.log.error({ err: error }, 'mutation switch failed');
    return reply(response, 500, { statusCode: 500, code: 'internal_error', message: 'The sandbox could not be rebuilt.' });
  }
  reply(response, 200, { mutation: mutation ?? null });
}
