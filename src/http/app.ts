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
import { errorReply, HttpProtocolError } from './error-mapping.js';
import { tokenMatches } from './token.js';
import { zodValidatorCompiler } from './validation.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `always`: answered even while the register cannot work (status, version, merchant…,
     * DECISIONS 11). Default: refused with the code of the cause.
     */
    availability?: 'always';
    /**
     * True when this request only reads: it is then answered during a storage fault (200–203),
     * from what the index still holds (ADR 0116). Other refusals still apply.
     */
    lookup?: (body: unknown) => boolean;
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
}

export const BODY_LIMIT = 1024 * 1024;
export const IMAGE_BODY_LIMIT = 10 * 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

function hostName(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(1, hostHeader.indexOf(']'));
  const colon = hostHeader.lastIndexOf(':');
  return (colon >= 0 ? hostHeader.slice(0, colon) : hostHeader).toLowerCase();
}

const isApi = (url: string): boolean => url === '/api' || url.startsWith('/api/');
const pathOf = (url: string): string => url.split('?', 1)[0]!;

/** Builds the HTTP app: the common rules every /api/ path obeys, then the route groups. */
export async function buildHttpApp(options: HttpOptions): Promise<KasaApp> {
  const app = Fastify({
    loggerInstance: options.logger,
    // One line per request is written by the onResponse hook below, not by fastify.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Route lookups are exact; trailing slashes are not the same path.
    routerOptions: { ignoreTrailingSlash: false },
    // A URL fastify cannot even decode (e.g. `/api/%zz`) still gets an ErrorResponse.
    frameworkErrors: (error, request, replyOfAnyRoute) => {
      const body = errorReply(
        new HttpProtocolError(404, 'UNKNOWN', `No such path: ${error.message}`),
        undefined,
      ).body;
      const reply = replyOfAnyRoute as unknown as FastifyReply;
      void reply
        .code(404)
        .header('x-request-id', request.id)
        .header('accept-charset', 'utf-8')
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(body));
    },
  }).withTypeProvider<ZodTypeProvider>() as unknown as KasaApp;

  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Many POS clients send no or a wrong Content-Type: any body is read as UTF-8 and must be JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new FiscalError('MALFORMED_INPUT', 'The request body is not valid JSON.'), undefined);
    }
  });

  const allowedHosts = new Set([
    ...LOOPBACK_NAMES,
    ...(options.allowedHosts ?? []).map((h) => h.toLowerCase()),
  ]);
  const knownRoutes = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = knownRoutes.get(route.url) ?? new Set<string>();
    for (const m of methods) set.add(m);
    knownRoutes.set(route.url, set);
  });

  app.addHook('onRequest', async (request, reply) => {
    request.startedAt = process.hrtime.bigint();
    reply.header('x-request-id', request.id);
    // DNS rebinding: a page on a foreign name must not drive the register through a browser.
    const hostHeader = request.headers.host;
    if (hostHeader !== undefined && !allowedHosts.has(hostName(hostHeader))) {
      throw new HttpProtocolError(
        421,
        'UNKNOWN',
        `Host "${hostHeader}" is not accepted; use 127.0.0.1 or localhost.`,
      );
    }
    if (options.token !== undefined && isApi(request.url)) {
      if (!tokenMatches(request.headers.authorization, options.token)) {
        throw new HttpProtocolError(
          401,
          'UNKNOWN',
          'Missing or wrong token: send Authorization: Bearer <token>.',
          {
            'www-authenticate': 'Bearer realm="kasa"',
          },
        );
      }
    }
  });

  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && (request.method === 'POST' || request.method === 'PUT')) {
      request.body = {};
    }
    request.jsonBody = request.body;
    const config = request.routeOptions.config;
    if (config.availability !== 'always') {
      const refusal = options.readiness.refusal();
      if (refusal && !(lookupsAnswered(refusal) && config.lookup?.(request.body))) throw refusal;
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (isApi(request.url) && typeof reply.getHeader('content-type') === 'string') {
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
    const { status, headers, body } = errorReply(error, routeKey(request));
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
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.get('/api/openapi.json', { config: { availability: 'always' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );

  for (const routes of options.routes) routes(app);
  return app;
}
