// Builds the sandbox Fastify app: {base_url} at /svc, {auth_url} at /idp, {fleet_base_url}
// at /fleet and sandbox-only routes at /_sandbox, with spec-driven validation and no 5xx.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyHttpOptions,
} from 'fastify';
import { AuthorizationCodes } from './authorization-codes.ts';
import { parseForm } from './body-parsers.ts';
import { SandboxClock } from './clock.ts';
import { OTHER_LESSEE_API_KEY, type SandboxCredentials } from './config.ts';
import type { SandboxContext } from './context.ts';
import { EventStore } from './event-store.ts';
import { installFault } from './faults/index.ts';
import { buildLessees, buildVehicles, DEFAULT_VEHICLE_COUNT } from './fleet-fixtures.ts';
import { FleetIndex } from './fleet-index.ts';
import { closeIdleConnections } from './idle-connections.ts';
import type { MutationId } from './mutations.ts';
import { sendApiError, sendOAuthError } from './replies.ts';
import { fleetRoutes } from './routes/fleet.ts';
import { identityProviderRoutes } from './routes/identity-provider.ts';
import { inspectionRoutes } from './routes/inspection.ts';
import { milestoneRoutes } from './routes/milestones.ts';
import { serviceTokenRoutes } from './routes/service-token.ts';
import { BatchedStderr } from './log-stream.ts';
import { requestLogHook } from './request-log.ts';
import { loadSpecValidators, type SpecValidators } from './spec-validation.ts';
import { TokenStore } from './token-store.ts';

export type SandboxOptions = {
  credentials: SandboxCredentials;
  vehicleCount?: number;
  clockOffsetSeconds?: number;
  dataFile?: string;
  /** Events kept in memory (the newest); the data file keeps all of them. */
  maxEvents?: number;
  /** Outstanding authorization codes; beyond, authorize answers temporarily_unavailable. */
  maxCodes?: number;
  /** Issued tokens kept; beyond, the one expiring first is dropped. */
  maxTokens?: number;
  mutation?: MutationId;
  /** pino level; 'silent' for in-process tests. */
  logLevel?: string;
  connections?: Partial<ConnectionLimits>;
  /** Compiled validators of another sandbox of this process (they hold no state); compiled afresh when not given. */
  validators?: SpecValidators;
};

/** Every connection ends: a client that stalls its headers, its body or an idle keep-alive is cut off. */
export type ConnectionLimits = {
  /** Until the request headers are complete. */
  headersTimeoutMs: number;
  /** Until the whole request (headers and body) is in. */
  requestTimeoutMs: number;
  /** Socket inactivity, in any phase. */
  idleTimeoutMs: number;
  /** Between requests on a kept-alive connection. */
  keepAliveTimeoutMs: number;
  /** Open connections at most; more are closed on accept. */
  maxConnections: number;
};

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1024,
};

/**
 * The request id header of every answer: the id of its line in the request log, and what the client's ApiError quotes
 * in `requestIds` (the first of the names src/api-error.ts reads; the specs name no request id header).
 */
export const REQUEST_ID_HEADER = 'x-request-id';

export type Sandbox = { app: FastifyInstance; context: SandboxContext; foreignVehicleNumber: string; foreignCustomerNumber: string };

export function buildSandbox(options: SandboxOptions): Sandbox {
  const { credentials } = options;
  const clock = new SandboxClock(options.clockOffsetSeconds ?? 0);
  const lessees = buildLessees(credentials.fleetApiKey, OTHER_LESSEE_API_KEY);
  const vehicles = buildVehicles(options.vehicleCount ?? DEFAULT_VEHICLE_COUNT, lessees);
  const context: SandboxContext = {
    credentials,
    clock,
    tokens: new TokenStore(clock, options.maxTokens),
    codes: new AuthorizationCodes(clock, options.maxCodes),
    events: new EventStore(options.dataFile, options.maxEvents),
    fleet: new FleetIndex(vehicles, lessees),
    validators: options.validators ?? loadSpecValidators(),
    mutation: options.mutation,
    seams: {},
    logStream: new BatchedStderr(),
  };
  const foreign = foreignVehicle(context);
  const app = buildApp(context, options.logLevel ?? 'info', { ...DEFAULT_CONNECTION_LIMITS, ...options.connections });
  for (const warning of context.events.warnings) app.log.warn(warning);
  // Appends in flight finish before the file is closed and its lock released.
  app.addHook('onClose', () => context.events.close());
  return {
    app,
    context,
    foreignVehicleNumber: foreign.vehicleNumber,
    foreignCustomerNumber: foreign.customerNumber,
  };
}

/** The second lessee's first vehicle: what LP_FLEET_FOREIGN_VEHICLE_NUMBER and LP_FLEET_FOREIGN_CUSTOMER_NUMBER name. */
function foreignVehicle(context: SandboxContext): { vehicleNumber: string; customerNumber: string } {
  const other = context.fleet.forApiKey(OTHER_LESSEE_API_KEY)!;
  return context.fleet.vehicles[other.ids[0]!]!;
}

/** Body parse errors and other framework 4xx errors, answered in the shape of the route's API. */
function errorHandler(shape: 'oauth' | 'api') {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    let status = error.statusCode ?? 500;
    let message = error.message;
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      status = 400;
      message = `Unsupported Content-Type ${request.headers['content-type'] ?? '(none)'}.`;
    } else if (
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      error instanceof SyntaxError
    ) {
      status = 400;
      message = `The body is not valid JSON: ${error.message}`;
    }
    if (status >= 500) request.log.error({ err: error }, 'unexpected error');
    if (shape === 'oauth' && status < 500) return sendOAuthError(reply, status, 'invalid_request', message);
    return sendApiError(
      reply,
      status,
      status >= 500 ? 'internal_error' : 'invalid_request',
      status >= 500 ? 'Internal server error.' : message,
    );
  };
}

/** The server's limits, its request log and request ids, and its answer to URLs it cannot route. */
function fastifyOptions(context: SandboxContext, logLevel: string, limits: ConnectionLimits): FastifyHttpOptions<Server> {
  return {
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      // Node checks the header and request timeouts this often (its default, 30 s, would let them run over by as much).
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    logger: {
      level: logLevel,
      stream: context.logStream,
      redact: {
        paths: ['req.headers.authorization', 'req.headers["api-key"]', 'req.headers["ocp-apim-subscription-key"]'],
        censor: '[redacted]',
      },
    },
    // One log line per request (in onResponse below) instead of Fastify's two: half the cost under load.
    logController: new LogController({ disableRequestLogging: true }),
    // No child logger per request (a measurable share of the per-request cost); lines carry reqId explicitly.
    childLoggerFactory: (logger) => logger,
    // Generous but bounded; an oversized body is a 413, not a crash.
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 500 },
    // A random id per request (Fastify's default counts from 1 per process), never one a client sent.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // A URL Fastify cannot route (a malformed percent-encoding, an over-long parameter) is answered before any hook runs:
    // the same answer Fastify gives, with the request id.
    frameworkErrors: (error, request, reply) => {
      const status = error.statusCode ?? 400;
      (reply as FastifyReply)
        .code(status)
        .header(REQUEST_ID_HEADER, request.id)
        .send({ error: 'Bad Request', code: error.code, message: error.message, statusCode: status });
    },
  };
}

function buildApp(context: SandboxContext, logLevel: string, limits: ConnectionLimits): FastifyInstance {
  const app = Fastify(fastifyOptions(context, logLevel, limits));
  // On every answer, errors and 404s included: set before any route, parser or validator can answer.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });

  // Token requests are form-encoded; repeated fields become arrays so validation refuses them (RFC 6749 section 3.2).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, parseForm);

  app.server.maxConnections = limits.maxConnections;
  closeIdleConnections(app.server, limits.idleTimeoutMs);
  const { credentials } = context;
  app.addHook(
    'onResponse',
    requestLogHook(app.log, context.logStream, [
      credentials.clientSecret,
      credentials.subscriptionKey,
      credentials.fleetApiKey,
      OTHER_LESSEE_API_KEY,
    ]),
  );

  app.setNotFoundHandler((request, reply) =>
    sendApiError(
      reply,
      404,
      'not_found',
      `Resource not found: ${request.method} ${request.url.split('?')[0]} (the API lives under /svc, /idp and /fleet).`,
    ),
  );
  app.setErrorHandler(errorHandler('api'));
  // The injected violation, if any: hooks around the honest routes, seams, stores or parsers (sandbox/faults/).
  installFault(app, context);

  registerRoutes(app, context);
  return app;
}

function registerRoutes(app: FastifyInstance, context: SandboxContext): void {
  // The token endpoints answer errors the OAuth way (RFC 6749 5.2); everything else with the API's error body.
  const withOAuthErrors = (routes: typeof serviceTokenRoutes) => async (scope: Parameters<typeof serviceTokenRoutes>[0]) => {
    scope.setErrorHandler(errorHandler('oauth'));
    routes(scope, context);
  };
  app.register(withOAuthErrors(serviceTokenRoutes), { prefix: '/svc' });
  app.register(async (scope) => milestoneRoutes(scope, context), { prefix: '/svc' });
  app.register(withOAuthErrors(identityProviderRoutes), { prefix: '/idp' });
  app.register(async (scope) => fleetRoutes(scope, context), { prefix: '/fleet' });
  app.register(async (scope) => inspectionRoutes(scope, context), { prefix: '/_sandbox' });
}
