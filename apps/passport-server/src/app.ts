import AjvCompiler from '@fastify/ajv-compiler';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config';
import type { MailProvider, SmsProvider } from './delivery/providers';
import { relaxRiskLimits, testPowLimits } from './domain/challenge/limits';
import { AccessLog } from './http/access-log';
import { apiNotFound, errorHandler, frameworkErrors } from './http/error-handler';
import { logId, logIdHeader } from './http/log-id';
import { loggerOptions } from './http/logger';
import { checkResponses } from './http/response-check';
import { collectRoutes } from './lib/route-inventory';
import { createClock } from './lib/test-clock';
import { defaultLimits, type Limits } from './limits';
import accounts from './plugins/app/accounts';
import cancellation from './plugins/app/cancellation';
import challenge from './plugins/app/challenge';
import clientApps from './plugins/app/client-apps';
import codes from './plugins/app/codes';
import csrf from './plugins/app/csrf';
import db from './plugins/app/db';
import delivery from './plugins/app/delivery';
import devices from './plugins/app/devices';
import events from './plugins/app/events';
import housekeeping from './plugins/app/housekeeping';
import mixMode from './plugins/app/mix-mode';
import monitoring from './plugins/app/monitoring';
import oauth from './plugins/app/oauth';
import openAuth from './plugins/app/open-auth';
import organisations from './plugins/app/organisations';
import passwords from './plugins/app/passwords';
import profile from './plugins/app/profile';
import risk from './plugins/app/risk';
import secret from './plugins/app/secret';
import sessions from './plugins/app/sessions';
import store from './plugins/app/store';
import tokens from './plugins/app/tokens';
import waitlist from './plugins/app/waitlist';
import webhooks from './plugins/app/webhooks';
import cookie from './plugins/external/cookie';
import cors from './plugins/external/cors';
import formbody from './plugins/external/formbody';
import helmet from './plugins/external/helmet';
import swagger from './plugins/external/swagger';
import appRoutes from './routes/app/index';
import clockRoutes from './routes/dev/clock';
import outboxRoutes from './routes/dev/outbox';
import familyRoutes from './routes/families';
import managementRoutes from './routes/management/index';
import managementWebhookRoutes from './routes/management/webhooks';
import monitorRoutes from './routes/monitor/index';
import providerMount from './routes/open/provider-mount';
import scimRoutes from './routes/scim/index';
import siteRoutes from './routes/site/index';
import ssoRoutes from './routes/sso/index';
import vcDevAnswer from './routes/vc/dev-answer';
import vcRoutes from './routes/vc/index';

/** What the embedding code (start, tests, benchmarks) may hand in besides the config. */
/** The challenge's prices and the reference profile they are set against (`pnpm bench` measures them). */
export { defaultChallengeLimits } from './domain/challenge/limits';
export { priceOf, REFERENCE_PROFILE } from './domain/challenge/price';
/** A passkey sign-in's verification, as the server runs it (`pnpm bench` measures it against raw P-256). */
export { verifyAuthentication } from './domain/passkeys/ceremony';

export interface BuildOptions {
  /** Where log lines go; stdout by default. */
  logStream?: DestinationStream;
  /** Replace the configured SMS provider. */
  sms?: SmsProvider;
  /** Replace the configured mail provider. */
  mail?: MailProvider;
  /** The fetch the SMS webhook uses. */
  fetch?: typeof fetch;
  /** The clock, in ms since the epoch. */
  now?: () => number;
  /** Override the security numbers (tests lower caps to reach them quickly). */
  limits?: Partial<Limits>;
  /** Extra plugins registered after the built-in routes (embedding, tests, benchmarks). */
  plugins?: FastifyPluginAsync[];
  /**
   * Check every JSON body against its route's response schema before it is sent; a mismatch answers
   * 500 (src/http/response-check.ts). On in the test suite, off in production.
   */
  validateResponses?: boolean;
}

export interface Runtime {
  now: () => number;
  limits: Limits;
  sms: SmsProvider | undefined;
  mail: MailProvider | undefined;
  fetch: typeof fetch;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    runtime: Runtime;
  }
}

/**
 * One validator compiler for every server of the process. Fastify compiles each route's input schemas
 * with Ajv when a server starts, most of a start's CPU; Ajv keeps what it compiled by schema object, and
 * the schemas are module constants, so with one pool a second server in the process (the test suite
 * starts hundreds, the bench several) reuses the validators the first compiled. The pool is keyed by
 * the Ajv options, so a server with other options gets its own. Production runs one server per process.
 */
const buildValidator = AjvCompiler();

/** Builds the passport server: plugins, routes and the one error handler. Call `listen` or `inject` on it. */
export async function buildServer(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // Logging off (LOG_LEVEL=silent): no logger at all, rather than one that drops every line. Fastify
    // then makes no child logger per request (pino serialises its bindings when it is made) and listens
    // for no response's end to log it; the bench's session check spent about 3 % of its CPU on them.
    logger: config.logLevel === 'silent' ? false : loggerOptions(config.logLevel, options.logStream),
    logController: new AccessLog({ requestIdLogLabel: 'logid' }),
    genReqId: logId,
    requestIdHeader: false,
    trustProxy: config.trustProxy as boolean,
    bodyLimit: 64 * 1024,
    // A hang detector, not a speed bound: Fastify's default (10 s per plugin) failed starts on a loaded
    // machine, with several servers starting at once.
    pluginTimeout: 120_000,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 200 },
    ajv: {
      // strictNumbers off: with it on, Ajv 8 coerces a query's "1e400" to Infinity and then skips
      // minimum/maximum for a non-finite number, so a page of Infinity reached the database. Off, the range
      // keywords always run, and every number of every input has finite bounds (test/inventory.test.ts).
      customOptions: {
        coerceTypes: 'array',
        removeAdditional: false,
        useDefaults: true,
        allErrors: false,
        strictNumbers: false,
      },
    },
    schemaController: { compilersFactory: { buildValidator } },
    frameworkErrors,
  });

  // First, so that every route (swagger's included) lands in the inventory the security tests walk.
  collectRoutes(app);
  app.decorate('config', config);
  // TEST_CLOCK=on: a clock end-to-end tests may move forward (/dev/clock); otherwise the given one.
  const clock = config.testClock ? createClock(options.now ?? Date.now) : undefined;
  app.decorate('runtime', {
    now: clock ? clock.now : (options.now ?? Date.now),
    // RISK_THRESHOLDS=relaxed (loopback only, src/config.ts): the counts before a captcha × 100.
    // POW_DIFFICULTY=test (loopback only): the proof of work priced for browser tests.
    limits: ((limits) => (config.powDifficulty === 'test' ? testPowLimits(limits) : limits))(
      ((limits) => (config.riskThresholds === 'relaxed' ? relaxRiskLimits(limits) : limits))({
        ...defaultLimits,
        renderNiceness: config.renderNiceness,
        ...options.limits,
      }),
    ),
    sms: options.sms,
    mail: options.mail,
    fetch: options.fetch ?? fetch,
  });

  // Response schemas document the contract in OpenAPI; bodies are plain JSON so that a failure
  // envelope on a 200 is never reshaped by a success schema.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  app.addHook('onRequest', logIdHeader);
  if (options.validateResponses) checkResponses(app);

  app.setErrorHandler(errorHandler);

  // Third-party wiring.
  await app.register(cookie);
  await app.register(formbody);
  await app.register(helmet);
  await app.register(cors);
  await app.register(swagger);

  // The app's own services.
  await app.register(clientApps);
  await app.register(db);
  await app.register(secret);
  await app.register(store);
  await app.register(sessions);
  await app.register(csrf);
  await app.register(mixMode);
  await app.register(delivery);
  await app.register(codes);
  await app.register(passwords);
  await app.register(accounts);
  // Before the areas that add what blocks a cancellation and what erasure removes (organisations).
  await app.register(cancellation);
  await app.register(organisations);
  await app.register(devices);
  await app.register(events);
  await app.register(webhooks);
  await app.register(housekeeping);
  await app.register(profile);
  await app.register(tokens);
  await app.register(challenge);
  await app.register(risk);
  await app.register(oauth);
  // Monitoring and the waitlist (issue 18).
  await app.register(monitoring);
  await app.register(waitlist);
  await app.register(openAuth);

  // Routes by path family.
  await app.register(appRoutes);
  await app.register(familyRoutes);
  // Open authorization: the OpenID provider, in a scope of its own (no body parser of ours).
  await app.register(providerMount);
  await app.register(vcRoutes);
  await app.register(monitorRoutes);
  await app.register(managementRoutes);
  await app.register(managementWebhookRoutes);
  await app.register(scimRoutes);
  if (app.delivery.outbox) await app.register(outboxRoutes, { outbox: app.delivery.outbox });
  if (app.delivery.outbox) await app.register(vcDevAnswer);
  if (clock) await app.register(clockRoutes, { clock });
  await app.register(ssoRoutes);
  // The web app and its legal documents; its not-found handler answers API paths with apiNotFound.
  await app.register(siteRoutes, { apiNotFound });
  for (const plugin of options.plugins ?? []) await app.register(plugin);

  try {
    await app.ready();
  } catch (error) {
    // A start refused late (a SECRET that cannot open the signing keys, in an onReady hook) must not
    // leave what the plugins opened running: the database, the store, the render process.
    await app.close().catch(() => {});
    throw error;
  }
  return app;
}
