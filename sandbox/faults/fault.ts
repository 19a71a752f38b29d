// What an injected fault is: where it applies to the honest sandbox and what it changes there, the way a fault-injection
// proxy wraps a server. Each constructor below is one kind of place; a fault is installed while its app is built.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { type BodyParser, honestParser, type ParsedMediaType, replaceParser } from '../body-parsers.ts';
import type { SandboxContext } from '../context.ts';
import type { SeamName, SeamReplacements, Seams } from '../seams.ts';

/** A route of the sandbox as METHOD and URL pattern with its prefix (GET includes its HEAD); `* /fleet/*`: every fleet route. */
export type Route =
  | 'POST /svc/token'
  | 'POST /svc/v1/load-milestone-events'
  | 'GET /idp/oauth2/default/v1/authorize'
  | 'POST /idp/oauth2/default/v1/token'
  | 'GET /fleet/vehicles'
  | 'GET /fleet/vehicles/:vehicleNumber'
  | '* /fleet/*';

type Stores = Pick<SandboxContext, 'tokens' | 'codes'>;

/** Where a fault applies. */
export type Place =
  /** Requests to a route: onRequest runs before the honest hooks (API key, bearer token), preHandler just before the handler. */
  | { request: Route; hook: 'onRequest' | 'preHandler' }
  /** Answers of a route with this status, after the honest code made them. */
  | { answer: Route; status: number }
  /** A decision of the honest code (sandbox/seams.ts). */
  | { seam: SeamName }
  /** A method of a store the routes call through the context. */
  | { store: keyof Stores; method: string }
  /** The body parser of a media type: the request before validation. */
  | { parser: ParsedMediaType }
  /** A route the honest sandbox does not have, in the scope of a prefix (so that scope's hooks apply). */
  | { newRoute: string; prefix: string };

export type Fault = {
  where: Place;
  /** Puts the fault in place: called once per sandbox, after the honest root hooks and parsers, before the routes. */
  install(app: FastifyInstance, context: SandboxContext): void;
};

/** Rewrites the request, or answers it and returns `reply` (the honest route then never sees it). */
export type RequestChange = (request: FastifyRequest, reply: FastifyReply, context: SandboxContext) => unknown;

export function requestTo(route: Route, hook: 'onRequest' | 'preHandler', change: RequestChange): Fault {
  return {
    where: { request: route, hook },
    install(app, context) {
      const matches = routeMatcher(route);
      const run = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
        if (matches(request) && change(request, reply, context) === reply) return;
        done();
      };
      if (hook === 'onRequest') app.addHook('onRequest', run);
      else app.addHook('preHandler', run);
    },
  };
}

/** Changes an answer as sent: status, headers (through `reply`) and the serialised payload (returned). */
export type AnswerChange = (payload: unknown, request: FastifyRequest, reply: FastifyReply, context: SandboxContext) => unknown;

export function answerOf(route: Route, status: number, change: AnswerChange): Fault {
  return {
    where: { answer: route, status },
    install(app, context) {
      const matches = routeMatcher(route);
      app.addHook('onSend', (request, reply, payload, done) => {
        done(null, reply.statusCode === status && matches(request) ? change(payload, request, reply, context) : payload);
      });
    },
  };
}

/** Changes the JSON body of an answer (Fastify serialises objects with JSON.stringify, so re-serialising keeps it). */
export function jsonAnswerOf(
  route: Route,
  status: number,
  change: (body: Record<string, unknown>, request: FastifyRequest, reply: FastifyReply, context: SandboxContext) => unknown,
): Fault {
  return answerOf(route, status, (payload, request, reply, context) =>
    typeof payload === 'string' && /^application\/json/.test(String(reply.getHeader('content-type')))
      ? JSON.stringify(change(JSON.parse(payload) as Record<string, unknown>, request, reply, context))
      : payload,
  );
}

export function replaceSeam<K extends SeamName>(name: K, change: (honest: Seams[K], context: SandboxContext) => Seams[K]): Fault {
  return {
    where: { seam: name },
    install(_app, context) {
      context.seams[name] = ((honest: Seams[K]) => change(honest, context)) as SeamReplacements[K];
    },
  };
}

export function wrapStore<S extends keyof Stores, M extends keyof Stores[S] & string>(
  store: S,
  method: M,
  change: (honest: Stores[S][M], context: SandboxContext) => Stores[S][M],
): Fault {
  return {
    where: { store, method },
    install(_app, context) {
      const target = context[store] as Stores[S];
      const honest = (target[method] as (...args: unknown[]) => unknown).bind(target) as Stores[S][M];
      target[method] = change(honest, context);
    },
  };
}

export function replaceParserOf(mediaType: ParsedMediaType, change: (honest: BodyParser) => BodyParser): Fault {
  return {
    where: { parser: mediaType },
    install(app) {
      replaceParser(app, mediaType, change(honestParser(app, mediaType)));
    },
  };
}

export function addRoute(prefix: string, route: RouteOptions): Fault {
  return {
    where: { newRoute: `${[route.method].flat().join(',')} ${prefix}${route.url}`, prefix },
    install(app) {
      app.addHook('onRegister', (instance) => {
        if (instance.prefix === prefix) instance.route(route);
      });
    },
  };
}

/** Whether a request was routed to `route` (a 404 was routed to none). */
export function routeMatcher(route: Route): (request: FastifyRequest) => boolean {
  const [method, url] = route.split(' ') as [string, string];
  const prefix = url.endsWith('/*') ? url.slice(0, -1) : undefined;
  return (request) => {
    const routed = request.routeOptions;
    if (routed.url === undefined || (prefix === undefined ? routed.url !== url : !routed.url.startsWith(prefix))) return false;
    return method === '*' || routed.method === method || (method === 'GET' && routed.method === 'HEAD');
  };
}
