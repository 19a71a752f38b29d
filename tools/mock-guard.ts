// A thin node:http front for the Prism mock. Prism 5.14 exits on a request whose URL has a malformed percent-encoding
// (`/vehicles/%`: an uncaught URIError in its input validation), so one bad request would take the mock down for every
// other user. The guard answers such requests itself with a 400 and passes everything else through unchanged. It also
// gives the mock the limits every server we ship has: header, request and keep-alive timeouts and a connection cap.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface MockGuardOptions {
  host: string;
  port: number;
  /** Where Prism listens (loopback). */
  upstreamPort: number;
}

/**
 * The segment of a URL's path that cannot be percent-decoded, or undefined when all of them can. Only the path: Prism
 * answers a malformed query itself, as the spec says (the authorize endpoint's HTML error page, for one).
 */
function malformedPathSegment(url: string): string | undefined {
  const query = url.indexOf('?');
  for (const part of (query === -1 ? url : url.slice(0, query)).split('/')) {
    try {
      decodeURIComponent(part);
    } catch {
      return part;
    }
  }
  return undefined;
}

function refuse(response: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ statusCode: status, code: status === 400 ? 'invalid_request' : 'mock_unavailable', message });
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

export function startMockGuard(options: MockGuardOptions): Promise<Server> {
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const url = incoming.url ?? '/';
    if (malformedPathSegment(url) !== undefined) {
      incoming.resume();
      return refuse(response, 400, 'The URL path has a malformed percent-encoding (a % not followed by two hex digits of valid UTF-8).');
    }
    const upstream = request(
      { host: '127.0.0.1', port: options.upstreamPort, method: incoming.method, path: url, headers: incoming.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (!response.headersSent) refuse(response, 502, 'The Prism mock behind this port did not answer.');
      else response.destroy();
    });
    incoming.pipe(upstream);
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.maxConnections = 1024;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve(server));
  });
}
