import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { isDatabaseUnavailable } from './db/unavailable';
import { type AnswerCacheOptions, answerCachePlugin } from './lib/answer-cache';
import { authorizePlugin } from './lib/authorize';
import { busyPage } from './lib/busy-page';
import { clientAddressKey } from './lib/client-address';
import { clockPlugin } from './lib/clock';
import { controlCharactersPlugin } from './lib/control-characters';
import { readPastEditions } from './lib/edition-read';
import { AppError } from './lib/errors';
import { eventBusPlugin } from './lib/event-bus';
import { openFileStore } from './lib/file-store';
import { MULTIPART_LIMITS } from './lib/multipart';
import { openapiRoutesPlugin, swaggerOptions } from './lib/openapi';
import { openPageRenderer } from './lib/page-renderer';
import { PAGE_LIMIT_GROUP, rateLimitStore } from './lib/rate-limit-store';
import { securityHeadersPlugin } from './lib/security-headers';
import { activityRoutes } from './modules/activities/activities.routes';
import { analyticsRoutes } from './modules/analytics/analytics.routes';
import { announcementRoutes } from './modules/announcements/announcements.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { courseRoutes } from './modules/course/course.routes';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { recordSensitiveReads } from './modules/data-access/data-access.hook';
import { dataAccessRoutes } from './modules/data-access/data-access.routes';
import { dataExportRoutes } from './modules/data-export/data-export.routes';
import { dataExportJob } from './modules/data-export/data-export-job';
import { editionRoutes } from './modules/editions/editions.routes';
import { entryRoutes } from './modules/entries/entries.routes';
import { erasureRoutes } from './modules/erasure/erasure.routes';
import { eventStreamRoutes } from './modules/event-stream/event-stream.routes';
import { exportRoutes } from './modules/exports/exports.routes';
import { fileJobsPlugin } from './modules/file-jobs/file-jobs.plugin';
import { followersRoutes } from './modules/followers/followers.routes';
import { idCardRoutes } from './modules/id-cards/id-cards.routes';
import { incidentRoutes } from './modules/incidents/incidents.routes';
import { kitTrackingRoutes } from './modules/kit-tracking/kit-tracking.routes';
import { liveRoutes } from './modules/live/live.routes';
import { loginActivityRoutes } from './modules/login-activities/login-activities.routes';
import { logRoutes } from './modules/logs/logs.routes';
import { messagesPlugin } from './modules/messages/messages.plugin';
import { messagesRoutes } from './modules/messages/messages.routes';
import { pushRoutes } from './modules/messages/push.routes';
import { passwordResetRoutes } from './modules/password-resets/password-resets.routes';
import { paymentStatementRoutes } from './modules/payment-statements/payment-statements.routes';
import { privacyRoutes } from './modules/privacy/privacy.routes';
import { myProfilePageRoutes } from './modules/profiles/my-profile-page.routes';
import { profilePageRoutes } from './modules/profiles/profile-page.routes';
import { profileRoutes } from './modules/profiles/profiles.routes';
import { receiptRoutes } from './modules/receipts/receipts.routes';
import { registrationRoutes } from './modules/registration/registration.routes';
import { retentionRoutes } from './modules/retention/retention.routes';
import { retentionJob } from './modules/retention/retention-job';
import { riderKitRoutes } from './modules/rider-kit/rider-kit.routes';
import { riderNumberRoutes } from './modules/rider-numbers/rider-numbers.routes';
import { routeTrackRoutes } from './modules/route-lines/route-lines.routes';
import { scanRoutes } from './modules/scans/scans.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { smsInboundRoutes } from './modules/sms-inbound/sms-inbound.routes';
import { stationRoutes } from './modules/stations/stations.routes';
import { systemRoutes } from './modules/system/system.routes';
import { trackingRoutes } from './modules/tracking/tracking.routes';
import { trackingBoardRoutes } from './modules/tracking/tracking-board.routes';
import { uploadRoutes } from './modules/uploads/uploads.routes';
import { userRoutes } from './modules/users/users.routes';
import { verificationRoutes } from './modules/verifications/verifications.routes';

// Writes through this process (and operator commands) drop the cached public answers at
// once. The embedded database has no other writer (the DATA_DIR lock lets one server open
// it, and the CLI goes through that server), so its answers live until the next write. On
// PostgreSQL other instances (or psql) may write: their changes arrive as notifications,
// and while those cannot be received one second bounds how stale an answer can be.
function answerCacheOptions(database: Database): AnswerCacheOptions {
  const maxEntries = 5000;
  if (database.kind === 'pglite') return { ttlMs: Number.POSITIVE_INFINITY, maxEntries };
  const listen = database.listen;
  if (!listen) return { ttlMs: 1000, maxEntries };
  return {
    ttlMs: 1000,
    maxEntries,
    changeFeed: { listen: (handlers) => listen('rally_answers', handlers), liveTtlMs: 60_000 },
  };
}

/**
 * Fastify fails a plain hop count closed (it cannot tell the proxy from a client that
 * dialled in directly), so hops are given as a function: believe the socket peer and
 * the next n-1 entries of X-Forwarded-For, no further. That is right when the server is
 * reachable only through its proxies (HOST=127.0.0.1, the default); when clients can
 * reach it directly, list the proxies' addresses instead (docs/operations.md, Configuration: TRUST_PROXY).
 */
function trustProxyOption(trust: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** A request URL without its query string. */
const pathOf = (url: string) => url.split('?', 1)[0] ?? url;

/** The API (its document and UI included): everything else the server answers is the web client's. */
const isApiUrl = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

function fieldName(path: unknown): string {
  if (!Array.isArray(path) || path.length === 0) return '';
  return path.map(String).join('.');
}

export async function buildApp(opts: {
  config: Config;
  database: Database;
  logger?: boolean;
}): Promise<FastifyInstance> {
  const { config, database } = opts;
  const db = database.db;
  const app = Fastify({
    logger: opts.logger === false ? false : { level: config.logLevel },
    // Per-request lines only when debugging: at a registration rush they cost more than they tell.
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxyOption(config.trustProxy),
    routerOptions: { maxParamLength: 300 },
    // Errors the router raises before any route runs (over-long or badly encoded paths)
    // get the same envelope as everything else.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const message =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long' : 'The request path is invalid';
      reply.code(400).send({ success: false, message, code: error.code ?? 'BAD_REQUEST' });
    },
  });
  for (const warning of config.warnings) app.log.warn(warning);
  // An empty body with a JSON content type (body-less POSTs from many clients) reads as
  // no body; anything else goes through Fastify's own parser, prototype-poisoning checks included.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    return defaultJson(request, text, done);
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.statusCode).send({ success: false, message: error.message, code: error.code });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // Fastify reports at least one issue with a validation error.
      const issue = error.validation[0]!;
      const field =
        fieldName((issue.params as { issue?: { path?: unknown } })?.issue?.path) ||
        issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
      const message =
        issue.message && !/^Invalid input/.test(issue.message) ? issue.message : `${field || 'request'} is invalid`;
      return reply.code(400).send({ success: false, message, code: 'VALIDATION' });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply
        .code(500)
        .send({ success: false, message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });
    }
    const status = error.statusCode ?? 500;
    if (status === 429 && !isApiUrl(request.url)) {
      // A page (the page limit below): a page back, with the wait the limiter set in Retry-After.
      const seconds = Number(reply.getHeader('retry-after')) || 60;
      return reply.code(429).type('text/html; charset=utf-8').send(busyPage(seconds, request.url));
    }
    if (status === 429) {
      // The rate limiter's own message says when to try again; keep it.
      const message = error.message || 'Too many requests. Please slow down and try again shortly.';
      return reply.code(429).send({ success: false, message, code: 'RATE_LIMITED' });
    }
    if (status === 413) {
      return reply.code(413).send({ success: false, message: 'The request is too large', code: 'PAYLOAD_TOO_LARGE' });
    }
    if (status === 415) {
      return reply
        .code(415)
        .send({ success: false, message: 'Unsupported content type', code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'The request body is not valid JSON'
          : error.message || 'Bad request';
      return reply.code(status).send({ success: false, message, code: error.code ?? 'BAD_REQUEST' });
    }
    if (isDatabaseUnavailable(error)) {
      // A restart or failover of the database: say so, and when to try again, rather than hang or 500.
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).header('retry-after', '5').send({
        success: false,
        message: 'The database is not answering right now. Please try again in a few seconds.',
        code: 'DATABASE_UNAVAILABLE',
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .code(500)
      .send({ success: false, message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });
  });

  await app.register(securityHeadersPlugin);
  await app.register(answerCachePlugin, answerCacheOptions(database));
  await app.register(controlCharactersPlugin);
  // A path whose parameter is empty (`/api/upload/profile-image/`) names no resource: the
  // router would still match `:id` with '', and the route's access check would answer
  // first. Wildcards (`*`, the docs' assets) may be empty. Pages (`/user/`) answer as pages.
  app.addHook('onRequest', async (request, reply) => {
    const params = request.params as Record<string, unknown> | undefined;
    if (
      request.url.startsWith('/api/') &&
      params &&
      Object.entries(params).some(([name, v]) => name !== '*' && v === '')
    ) {
      return reply.code(404).send({
        success: false,
        message: `Route ${request.method} ${pathOf(request.url).slice(0, 200)} not found`,
        code: 'NOT_FOUND',
      });
    }
  });
  // Rate limits (issue 26: a crowd on one address is not an attack). Riders share public
  // addresses (carrier-grade NAT, a club's Wi-Fi), so what is counted per address is kept to
  // what a shared address cannot exhaust by being busy:
  // - Files of the web build: no limit. They are served from disk, cached for a year when
  //   hashed, and one rider's first visit alone fetches dozens; a flood of them is the
  //   reverse proxy's to stop (docs/deploy.md), not worth a count per request here.
  // - Pages (those the server draws, /user/{id} and /me, and the app shell of every other
  //   path): their own generous ceiling per address (RATE_LIMIT_PAGES), apart from the API's,
  //   because drawing one costs the server real work; when it trips the browser gets a page
  //   (lib/busy-page.ts), never JSON.
  // - API calls: the general ceiling per minute (RATE_LIMIT_GLOBAL) per account when the call
  //   carries a valid session, per address otherwise. Route limits (uploads, resets) key the
  //   same way; registrations ask for a proof-of-work instead of refusing (modules/registration).
  const limits = config.rateLimits;
  const pageLimit = limits.enabled
    ? {
        max: limits.pagesPerMinute,
        timeWindow: 60_000,
        groupId: PAGE_LIMIT_GROUP,
        keyGenerator: (request: FastifyRequest) => clientAddressKey(request.ip),
      }
    : false;
  // Before the rate limiter's own onRoute hook, which reads the limit each route declares.
  app.addHook('onRoute', (route) => {
    if (isApiUrl(route.url) || route.config?.rateLimit !== undefined) return;
    // @fastify/static declares each file of the build as a route with its `file` in the config.
    const isFile = (route.config as { file?: unknown } | undefined)?.file !== undefined;
    route.config = { ...route.config, rateLimit: isFile ? false : pageLimit };
  });
  await app.register(rateLimit, {
    global: limits.enabled,
    // Route limits counted in the database, shared by every instance; the general ceiling
    // and the page limit per process.
    store: rateLimitStore(db),
    max: limits.globalPerMinute,
    timeWindow: 60_000,
    // The limiter is a route-level onRequest hook, so it runs after the authorize plugin's
    // app-level one (lib/authorize.ts), which has already looked the bearer token up: a
    // signed-in call counts against its account, at no second look-up. Anything else counts
    // against its address, IPv6 by /64 (lib/client-address.ts).
    keyGenerator: (request) => (request.auth ? `account ${request.auth.userId}` : clientAddressKey(request.ip)),
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      success: false,
      message: `Too many requests. Please try again in ${Math.ceil(ctx.ttl / 1000)} seconds.`,
      code: 'RATE_LIMITED',
    }),
  });
  await app.register(multipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true });
  await app.register(swagger, swaggerOptions);
  await app.register(openapiRoutesPlugin);
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  await app.register(authorizePlugin, { db });
  const fileStore = openFileStore(
    config.fileStore,
    (message, err) => app.log.warn({ err }, message),
    config.uploadSpoolDir,
  );
  await app.register(clockPlugin);
  await app.register(eventBusPlugin, { database });
  await app.register(messagesPlugin, {
    config,
    database,
    jobs: [retentionJob(database.db, fileStore, app.log), dataExportJob(database.db, fileStore)],
  });
  // Uploaded images are processed off the request, by this instance's file job worker.
  await app.register(fileJobsPlugin, {
    database,
    fileStore,
    worker: config.fileJobWorker,
    readerIdleMs: config.receiptReaderIdleMs,
    leaseSeconds: config.fileJobLeaseSeconds,
    spoolDir: config.uploadSpoolDir,
  });

  await app.register(
    async (api) => {
      // Staff reads may name a past edition (?edition=): checked here, handed to the route as
      // `request.edition`, which passes it to its service.
      readPastEditions(api, database.db);
      const db = database.db;
      // Who looked (DESIGN.md §12): every staff answer carrying a rider's sensitive fields is logged.
      recordSensitiveReads(api, database.db);
      await api.register(systemRoutes, { database, config });
      await api.register(authRoutes, { db, config });
      await api.register(registrationRoutes, { db, config, fileStore });
      await api.register(riderNumberRoutes, { db });
      await api.register(uploadRoutes, { db, config, fileStore });
      await api.register(kitTrackingRoutes, { db });
      await api.register(idCardRoutes, { db });
      await api.register(exportRoutes, { db });
      await api.register(passwordResetRoutes, { db, config });
      // Logs, login activities and the activity feed are the install's, not an edition's
      // (DESIGN.md §9): they read today's tables and today's roles, whatever `?edition=` names.
      await api.register(logRoutes, { db: database.db });
      await api.register(dataAccessRoutes, { db });
      await api.register(privacyRoutes, { db });
      await api.register(dataExportRoutes, { db });
      await api.register(retentionRoutes, { db });
      await api.register(erasureRoutes, { db, fileStore });
      await api.register(profileRoutes, { db });
      await api.register(riderKitRoutes, { db });
      await api.register(announcementRoutes, { db });
      await api.register(userRoutes, { db, fileStore });
      await api.register(verificationRoutes, { db, config, fileStore });
      await api.register(receiptRoutes, { db });
      await api.register(paymentStatementRoutes, { db });
      await api.register(dashboardRoutes, { db });
      await api.register(analyticsRoutes, { db });
      await api.register(activityRoutes, { db: database.db });
      await api.register(loginActivityRoutes, { db: database.db });
      await api.register(stationRoutes, { db });
      await api.register(scanRoutes, { db });
      await api.register(incidentRoutes, { db });
      await api.register(settingsRoutes, { db });
      await api.register(editionRoutes, { db });
      await api.register(entryRoutes, { db, config, fileStore });
      await api.register(courseRoutes, { db });
      await api.register(eventStreamRoutes, { db });
      await api.register(liveRoutes, { db });
      await api.register(messagesRoutes, { db, config });
      await api.register(pushRoutes, { db, config });
      await api.register(followersRoutes, { db, config });
      await api.register(smsInboundRoutes, { db, config });
      await api.register(trackingRoutes, { db, config });
      await api.register(routeTrackRoutes, { db, config });
      await api.register(trackingBoardRoutes, { db, config });
    },
    { prefix: '/api' },
  );

  const webDist = config.webDist ?? defaultWebDist;
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  // The build may prerender the landing page's and the registration form's markup
  // (landing.html, register.html) so they paint before any script runs on a slow phone;
  // every other path gets the plain app shell.
  const prerendered = new Map<string, string>();
  for (const [page, file] of [
    ['/', 'landing.html'],
    ['/register', 'register.html'],
    ['/register/', 'register.html'],
  ] as const) {
    if (hasWeb && existsSync(path.join(webDist, file))) prerendered.set(page, file);
  }
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // dist/ssr is the server's renderer (below), not the browser's.
      allowedPath: (pathName) => !pathName.startsWith('/ssr/'),
      // The web build writes .br/.gz beside each asset; send those to browsers that accept them.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        // Hashed build assets never change; everything else revalidates.
        if (filePath.includes(`${path.sep}assets${path.sep}`))
          res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
      },
    });
    // A rider's public profile is rendered per request with its data (when the build has the
    // renderer); it falls back to the plain shell like every other path.
    const renderer = openPageRenderer(webDist);
    if (renderer) {
      await app.register(profilePageRoutes, { db, renderer });
      // A signed-in rider's own page too, when the request carries their session cookie.
      await app.register(myProfilePageRoutes, { db, renderer });
    }
  }
  // The app shell answers every other path: a page like the ones above, under the same
  // limit. A 404 of the API, or of a method other than GET/HEAD, is not a page, and neither
  // is a file name the build no longer has (an old hashed script after a deploy): files are
  // never counted.
  const isNavigation = (request: FastifyRequest) =>
    hasWeb &&
    !isApiUrl(request.url) &&
    (request.method === 'GET' || request.method === 'HEAD') &&
    !/\.[A-Za-z0-9]+$/.test(pathOf(request.url));
  const shellLimit = pageLimit
    ? app.rateLimit({
        ...pageLimit,
        allowList: (request) => !isNavigation(request),
        // The limiter appends a route's groupId to its key; the not-found handler has no
        // route of its own, so its key ends the same way here: one count with the pages.
        keyGenerator: (request) => `${clientAddressKey(request.ip)}${PAGE_LIMIT_GROUP}`,
      })
    : null;
  app.setNotFoundHandler(shellLimit ? { preHandler: shellLimit } : {}, (request, reply) => {
    const url = request.url;
    if (url.startsWith('/api') || !hasWeb || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send({
        success: false,
        message: `Route ${request.method} ${pathOf(url).slice(0, 200)} not found`,
        code: 'NOT_FOUND',
      });
    }
    // The single-page app answers every other path.
    // (a not-found handler answers 404 unless told otherwise).
    reply.code(200).header('cache-control', 'no-cache');
    const pathname = pathOf(url);
    return reply.sendFile(prerendered.get(pathname) ?? 'index.html');
  });

  return app;
}
