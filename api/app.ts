/**
 * Assembles the HTTP app: middleware, every resource's routes, the OpenAPI document and docs page,
 * and the single error path. Building it touches no I/O, so the OpenAPI emitter can build one too.
 */
import { createNodeWebSocket } from '@hono/node-ws';
import { OpenAPIHono } from '@hono/zod-openapi';
import { documentConfig, registerSecuritySchemes } from '../openapi/document';
import { uploadLocalAudio } from '../openapi/routes/uploads';
import type { RoutePolicy } from '../shared/access/route-access';
import { Catalogs, sourceContextOf } from '../shared/sources/platform-modules';
import { adminCount } from './access/accounts';
import { createAuthenticator } from './access/authenticate';
import { authorization } from './access/authorize';
import { KeyUses } from './access/key-uses';
import { createPrincipalLoader } from './access/load-principal';
import { principalReloader } from './access/reload-principal';
import { createSessionStores } from './access/sessions';
import { auditRoutes } from './audit';
import { botRoutes } from './bots';
import { botAvatarRoutes } from './bots/avatar';
import { BotClient } from './bots/bot-client';
import { botLister } from './bots/bot-list';
import { botConfigRoutes } from './bots/config';
import { BotStatusView } from './bots/status-view';
import { daemonRoutes } from './daemons';
import { docsRoutes, serverUrl } from './docs';
import type { AppDeps, AppEnv } from './env';
import { errorHandler, notFoundHandler, validationHook } from './errors';
import { favoriteRoutes } from './favorites';
import { keyRoutes } from './keys';
import { ListenHub } from './listen/listen-hub';
import { metricsAccess, metricsRoutes } from './metrics';
import { ApiMetrics } from './metrics/api-metrics';
import { requestMetrics } from './metrics/request-metrics';
import { bodySizeLimit } from './middleware/body-size-limit';
import { contentTypeOptions } from './middleware/content-type-options';
import { crossSiteCheck } from './middleware/cross-site';
import { requestId } from './middleware/request-id';
import { wellFormedUrl } from './middleware/well-formed-url';
import { musicRoutes } from './music';
import { SongFinder } from './music/song-finder';
import { platformLoginRoutes } from './platform-logins';
import { spotifyRoutes } from './platform-logins/oauth-login';
import { personalLoginRoutes } from './platform-logins/personal-logins';
import { playerRoutes } from './player';
import { savedQueueRoutes } from './saved-queues';
import { sessionRoutes } from './session';
import { settingsRoutes } from './settings';
import { systemRoutes } from './system';
import { webRoutes } from './ui-bundle/static';
import { uploadRoutes } from './uploads';
import { uploadsKeptByEviction } from './uploads/kept-uploads';
import { userRoutes } from './users';
import { WsGateway } from './ws/gateway';
import { wsRoutes } from './ws/route';

/** `/api/bot/{id}` (OpenAPI) → `/api/bot/:id` (Hono). */
const toHonoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

export function createApp(deps: AppDeps) {
  const sessionStores = createSessionStores(deps.db);
  const keyUses = new KeyUses(deps.db);
  const authenticate = createAuthenticator(deps, sessionStores, keyUses);
  const policies = new Map<string, RoutePolicy>();

  const metrics = new ApiMetrics();
  const botClient = new BotClient(deps, metrics.busRequest);
  const botStatuses = new BotStatusView(deps.bus, botClient);
  const visibleBots = botLister(deps, botStatuses);
  // The one context of the api's platform code, made of its configuration here and handed down.
  const sources = sourceContextOf(deps.db, deps.config);
  const catalogs = new Catalogs(sources);
  const songFinder = new SongFinder(deps, catalogs);
  const listenHub = new ListenHub(deps.bus, botClient);
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  // First, so a request's time counts every other middleware too.
  app.use('*', requestMetrics(metrics));
  app.use('*', requestId());
  app.use('*', contentTypeOptions());
  // Hostile input is refused before any other middleware reads the URL or the body.
  app.use('*', wellFormedUrl());
  app.use('/api/*', bodySizeLimit([uploadLocalAudio.path]));
  app.use('/api/*', crossSiteCheck(deps.config));
  const authorize = authorization((method, path) => policies.get(`${method} ${path}`), authenticate);
  app.use('/api/*', authorize);
  app.use('/metrics', metricsAccess(deps.config.metricsToken, authorize));

  // Settings before the bot routes: `/api/bot/settings` must not be taken for a bot id.
  const api = app
    .route('/', systemRoutes(deps))
    .route('/', sessionRoutes(deps, sessionStores))
    .route('/', settingsRoutes(deps))
    .route('/', botRoutes(botClient, visibleBots, botStatuses))
    .route('/', botConfigRoutes(deps, botClient))
    .route('/', botAvatarRoutes(deps))
    .route('/', playerRoutes(deps, botClient, botStatuses, songFinder, listenHub))
    .route('/', musicRoutes(deps, songFinder, catalogs))
    .route('/', savedQueueRoutes(deps, botClient))
    .route('/', uploadRoutes(deps, { referencedUploadIds: () => uploadsKeptByEviction(deps) }))
    .route('/', favoriteRoutes(deps))
    .route('/', platformLoginRoutes(deps, sources, catalogs))
    .route('/', spotifyRoutes(deps))
    .route('/', personalLoginRoutes(deps, sources))
    .route('/', userRoutes(deps))
    .route('/', keyRoutes(deps, keyUses))
    .route('/', auditRoutes(deps))
    .route('/', daemonRoutes(deps))
    .route('/', metricsRoutes(metrics, deps.metrics));

  registerSecuritySchemes(app);
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== 'route') continue;
    const policy = (definition.route as { 'x-policy'?: RoutePolicy })['x-policy'];
    if (policy)
      policies.set(`${definition.route.method.toUpperCase()} ${toHonoPath(definition.route.path)}`, policy);
  }

  let document: unknown;
  app.route(
    '/',
    docsRoutes(() => {
      // Served with the address it is reached at, so Swagger's try-it calls go under the sub-path.
      document ??= {
        ...app.getOpenAPI31Document(documentConfig),
        servers: [{ url: serverUrl(deps.config) }],
      };
      return document;
    }, deps.config.basePath),
  );

  const gateway = new WsGateway(
    deps.bus,
    visibleBots,
    botStatuses,
    principalReloader(createPrincipalLoader(deps.db)),
    deps.wsGateway,
  );
  metrics.count({ websocketClients: () => gateway.size, listeners: () => listenHub.listenerCount });
  const { upgradeWebSocket, injectWebSocket, wss } = createNodeWebSocket({ app });
  app.route('/', wsRoutes(gateway, authenticate, upgradeWebSocket, deps.config));

  // The browser UI (web/dist) at `/` and every history-mode route; last, so it never shadows the API.
  app.route(
    '/',
    webRoutes({
      basePath: deps.config.basePath,
      setupDone: async () => (await adminCount(deps.db)) > 0,
    }),
  );

  app.onError(errorHandler);
  app.notFound(notFoundHandler);
  return { app, api, sessionStores, keyUses, gateway, listenHub, injectWebSocket, wss };
}

export type App = ReturnType<typeof createApp>['app'];
