import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { FiscalError } from '../core/fiscal-error.js';
import { lookupsAnswered, type RefusalSource } from '../core/services/register-status.js';
import { handleClientError } from './client-error.js';
import { errorReply, HttpProtocolError } from './error-mapping.js';
import { parseJsonBody } from './json-body.js';
import { PipeliningBound } from './pipelining.js';
import { isApiPath, isDocsPath, pathOf, requestRefusal, targetRefusal } from './request-rules.js';
import { BODY_LIMIT, DEFAULT_HTTP_LIMITS, type HttpLimits, MAX_HEADER_BYTES } from './server-limits.js';
import { zodValidatorCompiler } from './validation.js';

export { BODY_LIMIT, IMAGE_BODY_LIMIT } from './server-limits.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `always`: answered even while the register cannot work (status, version, merchant…,
     * ADR 0008 §11). Default: refused with the code of the cause.
     */
    availability?: 'always';
    /**
     * True when this request only reads: it is then answered during a storage fault (200–203),
     * from the index and the CHDÚ records past its high-water mark, so an index that lags never
     * answers "not found" or an older "last" document (ADR 0116). Other refusals still apply.
     */
    lookup?: (body: unknown) => boolean;
  }
  interface FastifyInstance {
    /**
     * Every route the app serves (method and declared path), including those of plugins (API docs)
     * — for the tests that try every rule on every route, so routes added later are covered.
     */
    kasaRoutes(): ReadonlyArray<{ method: string; url: string }>;
  }
  interface FastifyRequest {
    startedAt: bigint;
    /** The body as parsed from JSON, before the schema stripped or coerced anything. */
    jsonBody: unknown;
  }
}

export type KasaApp = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  Logger,
  ZodTypeProvider
>;

/** A group of routes (one file per endpoint group under src/http/routes/). */
export type RoutePlugin = (app: KasaApp) => void;

export interface HttpOptions {
  logger: Logger;
  /** Refuses fiscal work while the register cannot do it (consistency check, merchant). */
  readiness: RefusalSource;
  routes: readonly RoutePlugin[];
  /** Bearer token required on /api/ when set. */
  token?: string | undefined;
  /**
   * Names accepted in the Host header besides the loopback names: the configured listen host and,
   * when bound to a wildcard address, the machine's own addresses and name (from compose).
   */
  allowedHosts?: readonly string[];
  version: string;
  /** Server timeouts (default {@link DEFAULT_HTTP_LIMITS}); tests shorten them. */
  limits?: Partial<HttpLimits>;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** The path the rules read: the route the router matched, else the (canonical) request path. */
const routedPath = (request: FastifyRequest): string => request.routeOptions.url ?? pathOf(request.url);

/** Builds the HTTP app: the common rules every /api/ path obeys, then the route groups. */
export async function buildHttpApp(options: HttpOptions): Promise<KasaApp> {
  const limits: HttpLimits = { ...DEFAULT_HTTP_LIMITS, ...options.limits };
  const app = Fastify({
    loggerInstance: options.logger,
    // ADR 0602: slow or stalled clients are cut off; Node's own errors become ErrorResponses.
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
      maxHeaderSize: MAX_HEADER_BYTES,
      // Node's own 400 for a missing Host is not JSON: the request rules answer it instead.
      requireHostHeader: false,
    },
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.socketIdleTimeoutMs,
    clientErrorHandler: handleClientError(limits),
    // One line per request is written by the onResponse hook below, not by fastify.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Route lookups are exact; trailing slashes are not the same path.
    routerOptions: { ignoreTrailingSlash: false },
    // A URL fastify cannot even decode (e.g. `/api/%zz`) is refused like any encoded path.
    frameworkErrors: (error, request, replyOfAnyRoute) => {
      const refusal =
        targetRefusal(request.raw.url ?? '') ??
        new FiscalError('UNKNOWN', `The request cannot be routed (${error.code}).`);
      const { status, body } = errorReply(refusal, undefined);
      const reply = replyOfAnyRoute as unknown as FastifyReply;
      void reply
        .code(status)
        .header('x-request-id', request.id)
        .header('accept-charset', 'utf-8')
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(body));
    },
  }).withTypeProvider<ZodTypeProvider>() as unknown as KasaApp;

  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // API text: bodies are UTF-8 JSON with Content-Type application/json; the onRequest rules have
  // refused any other Content-Type before the body is read (ADR 0601).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (e) {
      done(e as Error, undefined);
    }
  });

  const rules = {
    allowedHosts: new Set([...LOOPBACK_NAMES, ...(options.allowedHosts ?? []).map((h) => h.toLowerCase())]),
    token: options.token,
  };
  const knownRoutes = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = knownRoutes.get(route.url) ?? new Set<string>();
    for (const m of methods) set.add(m);
    knownRoutes.set(route.url, set);
  });

  app.decorate('kasaRoutes', () =>
    [...knownRoutes].flatMap(([url, methods]) => [...methods].map((method) => ({ method, url }))),
  );

  const pipelining = new PipeliningBound(limits.requestTimeoutMs);
  app.addHook('onRequest', async (request, reply) => {
    request.startedAt = process.hrtime.bigint();
    reply.header('x-request-id', request.id);
    // ADR 0427: counted as the request arrives, before anything else; the requests behind a refused
    // one on its connection are neither run nor answered (the connection closes after the refusal).
    const admission = pipelining.admit(request.raw, reply.raw);
    if (admission === 'drop') {
      reply.hijack();
      return;
    }
    if (admission !== 'run') {
      request.log.warn('a connection has too many requests waiting for their answers: refused and closed');
      throw admission;
    }
    // ADR 0600/0601: target, Host, other sites, token, Content-Type — before the body is read.
    const refusal = requestRefusal(rules, {
      method: request.method,
      httpVersion: request.raw.httpVersion,
      rawUrl: request.raw.url ?? request.url,
      routedPath: request.routeOptions.url,
      headers: request.headers,
      rawHeaders: request.raw.rawHeaders,
    });
    if (refusal) throw refusal;
  });

  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && (request.method === 'POST' || request.method === 'PUT')) {
      request.body = {};
    }
    request.jsonBody = request.body;
    // ADR 0600: the gate reads the routed path; pages outside /api/ (admin, docs) always answer.
    const config = request.routeOptions.config;
    if (isApiPath(routedPath(request)) && config.availability !== 'always') {
      const refusal = options.readiness.refusal();
      if (refusal && !(lookupsAnswered(refusal) && config.lookup?.(request.body))) throw refusal;
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // ADR 0601: the API docs page, like the admin page, may not be framed by another site's page
    // (click-jacking its "Try it out"); X-Frame-Options for browsers without CSP level 2.
    if (isDocsPath(routedPath(request))) {
      const csp = reply.getHeader('content-security-policy');
      reply.header(
        'content-security-policy',
        typeof csp === 'string' && csp !== '' ? `${csp}; frame-ancestors 'none'` : "frame-ancestors 'none'",
      );
      reply.header('x-frame-options', 'DENY');
    }
    if (isApiPath(routedPath(request)) && typeof reply.getHeader('content-type') === 'string') {
      const type = String(reply.getHeader('content-type'));
      if (type.startsWith('application/json'))
        reply.header('content-type', 'application/json; charset=utf-8');
      reply.header('accept-charset', 'utf-8');
    }
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    const durationMs = Number(process.hrtime.bigint() - request.startedAt) / 1e6;
    request.log.info(
      {
        method: request.method,
        path: pathOf(request.url),
        status: reply.statusCode,
        resultCode: (reply as FastifyReply & { resultCode?: number }).resultCode,
        durationMs: Math.round(durationMs * 10) / 10,
      },
      'request',
    );
  });

  const routeKey = (request: FastifyRequest): string | undefined =>
    request.routeOptions.url === undefined ? undefined : `${request.method} ${request.routeOptions.url}`;

  app.setErrorHandler((error, request, reply) => {
    const { status, headers, body } = errorReply(error, routeKey(request), {
      bodyLimit: request.routeOptions.bodyLimit,
    });
    if (status >= 500 && body.resultCode === -1) {
      request.log.error({ err: error }, 'unexpected error');
    }
    (reply as FastifyReply & { resultCode?: number }).resultCode = body.resultCode as number;
    return reply
      .code(status)
      .headers(headers)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(body));
  });

  app.setNotFoundHandler((request, reply) => {
    const methods = knownRoutes.get(pathOf(request.url));
    const error = methods
      ? new HttpProtocolError(
          405,
          'UNKNOWN',
          `Method ${request.method} is not allowed on ${pathOf(request.url)}.`,
          {
            allow: [...methods].sort().join(', '),
          },
        )
      : new HttpProtocolError(404, 'UNKNOWN', `No such path: ${pathOf(request.url)}.`);
    const { status, headers, body } = errorReply(error, undefined);
    (reply as FastifyReply & { resultCode?: number }).resultCode = body.resultCode as number;
    return reply
      .code(status)
      .headers(headers)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(body));
  });

  // Successful JSON bodies: remember the resultCode for the request log line.
  app.addHook('preSerialization', async (_request, reply, payload) => {
    if (payload && typeof payload === 'object' && 'resultCode' in payload) {
      (reply as FastifyReply & { resultCode?: number }).resultCode = (
        payload as { resultCode: number }
      ).resultCode;
    }
    return payload;
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'kasa — eKasa local API',
        version: options.version,
        description:
          'Local fiscal cash-register service for the Slovak eKasa system, API v1.7. Every response carries an integer `resultCode` (0 = success); failures are ErrorResponse objects. See docs/errors.md for the codes.',
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
    // Fills components.schemas with the schemas the routes $ref (with their examples).
    transformObject: jsonSchemaTransformObject,
  });
  // ADR 0427: the OpenAPI text is serialized once, at the first request for it, and every answer
  // is that one Buffer (the plugins' own handlers serialized the 290 KB document per request, so
  // pipelined requests for it queued hundreds of megabytes). /docs/json answers the same bytes.
  let openapiText: Buffer | undefined;
  const sendOpenapi = (reply: FastifyReply): FastifyReply => {
    openapiText ??= Buffer.from(JSON.stringify(app.swagger()), 'utf8');
    return reply.type('application/json; charset=utf-8').send(openapiText);
  };
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiHooks: {
      preHandler: async (request, reply) =>
        request.routeOptions.url === '/docs/json' ? sendOpenapi(reply) : undefined,
    },
  });

  app.get(
    '/api/openapi.json',
    { config: { availability: 'always' }, schema: { hide: true } },
    async (_r, reply) => sendOpenapi(reply),
  );

  for (const routes of options.routes) routes(app);
  return app;
}
