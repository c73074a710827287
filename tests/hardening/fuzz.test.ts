/**
 * Fuzzing from the OpenAPI document (issue #16): every operation, as every kind of caller
 * (principals.ts), with hostile variants of its parameters and body (fuzz-inputs.ts), against the
 * real app on a libSQL file with the real daemon (fixtures in fuzz-fixtures.ts); the music platforms
 * are an msw stand-in that answers 503 to everything, so nothing leaves this machine. Every answer
 * must be:
 * - never a 500, and never another 5xx the operation does not declare (502 from the stand-in is);
 * - `{error: string}` whenever it is an error, and a redirect only to this site;
 * - what the operation's policy says for that caller (the authorization matrix, with hostile input);
 * - exactly 400 for input that breaks the contract (schema, limits, NUL or unpaired surrogates in
 *   any text), from a caller the route admits;
 * - without any change to the stored data or files when it is a refusal (4xx) (db-snapshot.ts);
 * - free of every stored secret, in body and headers, and so must every log line be (secret-scan.ts);
 * - free of the member's private favorite, saved queue and key when someone else asked.
 * Every caller gets the valid request and a hostile parameter and body on every operation; the other
 * variants go, in turn, to the callers the operation admits. This is also the authorization matrix of
 * every route and the bad-input check of every body.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { HttpResponse, http, passthrough } from 'msw';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uploadLocalAudio } from '../../openapi/routes/uploads';
import { buildOpenApiDocument } from '../../scripts/openapi-build';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../testkit/test-app';
import { useMswServer } from '../helpers/msw-server';
import { isEndlessStream } from '../helpers/ogg-reader';
import { plainWav } from '../uploads/media-files';
import { type ChangeWatch, watchChanges } from './db-snapshot';
import { createFuzzWorld, type FuzzWorld, fieldSecret, pathValue } from './fuzz-fixtures';
import {
  type OpenApiDocument,
  type Operation,
  operationsOf,
  SchemaWalker,
  uploadVariants,
  type Variant,
  type VariantClass,
  variantsFor,
} from './fuzz-inputs';
import {
  credentialHeaders,
  expectedOutcome,
  isAuthorizationRefusal,
  type Principal,
  reachesBot,
} from './principals';
import { type ScannedClients, scannedClients } from './scanned-client';
import { SecretScanner } from './secret-scan';
import { recordTally } from './tally';

const logLines = vi.hoisted((): string[] => []);
vi.mock(import('pino'), async (importOriginal) =>
  (await import('../helpers/log-capture')).pinoAtTraceInto(logLines, await importOriginal()),
);

const LOOPBACK = new Set(['127.0.0.1', 'localhost', 'bot.test']);
useMswServer(
  http.all(/.*/, ({ request }) =>
    LOOPBACK.has(new URL(request.url).hostname)
      ? passthrough()
      : HttpResponse.json({ error: 'platform stand-in' }, { status: 503 }),
  ),
);

const UPLOAD_PATH = uploadLocalAudio.path;
const document = buildOpenApiDocument() as OpenApiDocument;
/** Generated bodies name the fixture bot and give secret fields values the scan knows. */
const walker = new SchemaWalker(document.components.schemas, (name) =>
  name === 'botId' ? world.botId : fieldSecret(name),
);

/** Destructive operations last (a deleted fixture cannot be reached after), logout very last. */
const rank = (op: Operation) => (op.path.endsWith('/logout') ? 2 : op.method === 'DELETE' ? 1 : 0);
const operations = operationsOf(document).sort((a, b) => rank(a) - rank(b));

/**
 * Every caller gets, on every operation, the valid request and a hostile parameter and body (the first
 * variant of the first of these kinds the operation has); the other variants go to admitted callers.
 */
const EVERY_CALLER_CLASSES: VariantClass[][] = [
  ['path-unicode', 'query-type', 'query-extra'],
  ['body-not-json', 'upload-content', 'body-unexpected'],
];

/** The variants of an operation; the upload's raw body has variants of its own. */
function variantsOf(op: Operation): Variant[] {
  if (op.path !== UPLOAD_PATH) return variantsFor(op, walker);
  const generic = variantsFor({ ...op, parameters: [] }, walker);
  return [
    ...generic.filter((v) => v.class === 'baseline' || v.class === 'header-hostile'),
    ...uploadVariants('song.mp3'),
  ];
}

let t: TestApp;
let world: FuzzWorld;
let watch: ChangeWatch;
let clients: ScannedClients;
let wav: Uint8Array;
const scanner = new SecretScanner();
const failures = {
  serverErrors: [] as string[],
  malformedErrors: [] as string[],
  redirects: [] as string[],
  authz: [] as string[],
  invalidNot400: [] as string[],
  dataChanged: [] as string[],
  leakedPrivate: [] as string[],
};
const counts = { badInputs: 0, crashes: 0 };
const classesTried = new Map<VariantClass, number>();
const onCrash = () => void counts.crashes++;

beforeAll(async () => {
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  // yt-dlp and librespot are never run: their routes answer that the tool is missing.
  t = await startTestApp({
    env: { YTDLP_PATH: '/nonexistent/yt-dlp', LIBRESPOT_PATH: '/nonexistent/librespot' },
  });
  world = await createFuzzWorld(t, scanner);
  watch = await watchChanges(t.config.databaseUrl, t.dataDir);
  clients = scannedClients(t, scanner);
  const scratch = mkdtempSync(`${tmpdir()}/tsmb-fuzz-wav-`);
  wav = new Uint8Array(plainWav(scratch, 0.2));
  rmSync(scratch, { recursive: true, force: true });
}, 120_000);

afterAll(async () => {
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
  recordTally('fuzz (OpenAPI operations)', {
    requests: clients?.requests ?? 0,
    principals: world?.principals.all.length ?? 0,
    badInputs: counts.badInputs,
    serverErrors: failures.serverErrors.length,
    crashes: counts.crashes,
    dataChanged: failures.dataChanged.length,
    secretsSeen: scanner.findings.length,
  });
  watch?.close();
  await t?.close();
});

const namesBotInBody = (op: Operation) =>
  op.bodySchema !== undefined && walker.resolve(op.bodySchema).properties?.botId !== undefined;

function decoded(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

function requestFor(op: Operation, variant: Variant, principal: Principal): Request {
  let url = op.path.replace(
    /\{(\w+)\}/g,
    (_, name: string) => variant.path?.[name] ?? encodeURIComponent(pathValue(world, op, name)),
  );
  const query =
    variant.query ??
    op.parameters
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => `${p.name}=${encodeURIComponent(String(walker.valid(p.schema, p.name)))}`)
      .join('&');
  if (query) url += `?${query}`;
  const headers = new Headers(credentialHeaders(principal));
  const isUpload = op.path === UPLOAD_PATH;
  if (isUpload) headers.set('x-filename', 'fuzz.wav');
  for (const [name, value] of Object.entries(variant.headers ?? {})) headers.set(name, value);
  const init: RequestInit = { method: op.method, headers };
  if (op.method !== 'GET') {
    const body =
      variant.body ??
      (op.bodySchema ? JSON.stringify(walker.valid(op.bodySchema)) : isUpload ? wav : undefined);
    const ownType = op.bodySchema ? 'application/json' : isUpload ? 'audio/wav' : undefined;
    const type = variant.contentType === undefined ? ownType : variant.contentType;
    if (type) headers.set('content-type', type);
    if (body !== undefined) init.body = body as BodyInit;
  }
  return new Request(`${TEST_ORIGIN}${url}`, init);
}

/** The answer's text; an endless stream (GET /api/player/{botId}/listen) is cancelled after its head. */
async function bodyText(response: Response): Promise<string> {
  if (!isEndlessStream(response)) return response.text();
  await response.body?.cancel();
  return '';
}

async function attempt(op: Operation, variant: Variant, principal: Principal): Promise<void> {
  const request = requestFor(op, variant, principal);
  const where = `${op.method} ${op.path} [${variant.class}: ${variant.label.slice(0, 80)}] as ${principal.name}`;
  await watch.before();
  const response = await clients.send(request, principal.jar);
  const body = await bodyText(response);
  if (variant.class !== 'baseline') counts.badInputs++;
  classesTried.set(variant.class, (classesTried.get(variant.class) ?? 0) + 1);
  const { status } = response;

  if (status === 500 || (status > 500 && !op.statuses.includes(status)))
    failures.serverErrors.push(`${where}: ${status} ${body.slice(0, 200)}`);
  let error: unknown;
  if (status >= 400) {
    try {
      error = (JSON.parse(body) as { error?: unknown }).error;
    } catch {
      error = undefined;
    }
    if (typeof error !== 'string') failures.malformedErrors.push(`${where}: ${status} ${body.slice(0, 120)}`);
  }
  if (status >= 300 && status < 400) {
    const location = response.headers.get('location') ?? '';
    if (!location.startsWith('/') || location.startsWith('//'))
      failures.redirects.push(`${where}: redirects to ${location}`);
  }
  if (status >= 400 && status < 500) {
    const changed = await watch.changes();
    if (changed.length) failures.dataChanged.push(`${where}: ${status} changed ${changed.join(', ')}`);
  }

  const botParam = op.policy.botParam;
  const botId = botParam
    ? decoded(variant.path?.[botParam] ?? encodeURIComponent(pathValue(world, op, botParam)))
    : undefined;
  const want = expectedOutcome(op.policy, principal, botId);
  // A body that names a bot (saved queues) is checked against the caller's bots by the handler.
  const bodyBotOutOfReach = namesBotInBody(op) && !reachesBot(principal, world.botId);
  if (bodyBotOutOfReach && status < 300) failures.authz.push(`${where}: ${status} for a bot out of reach`);
  if (variant.reachesAuthz) {
    const got = isAuthorizationRefusal(status, error) ? status : 'allow';
    const refusedForBodyBot = bodyBotOutOfReach && want === 'allow' && error === 'no access to this bot';
    if (got !== want && !refusedForBodyBot)
      failures.authz.push(`${where}: expected ${want}, got ${status} ${String(error ?? '')}`);
    if (variant.invalid && want === 'allow' && status !== 400)
      failures.invalidNot400.push(`${where}: ${status} ${String(error ?? body.slice(0, 80))}`);
  }

  const { privateMarkers, principals } = world;
  if (principal.userId !== principals.owner.userId) {
    const markers = [privateMarkers.favorite, privateMarkers.queue];
    if (principal.role !== 'admin') markers.push(privateMarkers.key);
    for (const marker of markers)
      if (body.includes(marker)) failures.leakedPrivate.push(`${where}: shows ${marker.split('-')[1]}`);
  }
}

describe('every operation of the OpenAPI document, as every caller, with hostile input', () => {
  it('covers the whole document, whose only body that is not JSON is the upload', () => {
    expect(operations.length).toBeGreaterThanOrEqual(100);
    const rawBody = operations.filter((op) => op.bodyTypes.length > 0 && !op.bodySchema);
    expect(rawBody.map((op) => `${op.method} ${op.path}`)).toEqual([`POST ${UPLOAD_PATH}`]);
  });

  it.each(operations.map((op) => ({ name: `${op.method} ${op.path}`, op })))(
    '$name',
    { timeout: 120_000 },
    async ({ op }) => {
      const variants = variantsOf(op);
      const forEveryone = new Set<Variant>(variants.filter((v) => v.class === 'baseline'));
      for (const kinds of EVERY_CALLER_CLASSES) {
        const first = kinds.map((kind) => variants.find((v) => v.class === kind)).find(Boolean);
        if (first) forEveryone.add(first);
      }
      const start = Object.fromEntries(Object.entries(failures).map(([k, v]) => [k, v.length]));
      const callers = world.principals.all;
      for (const principal of callers)
        for (const variant of forEveryone) await attempt(op, variant, principal);
      const botId = op.policy.botParam ? pathValue(world, op, op.policy.botParam) : undefined;
      const admitted = callers.filter((p) => expectedOutcome(op.policy, p, botId) === 'allow');
      let turn = 0;
      for (const variant of variants)
        if (!forEveryone.has(variant)) await attempt(op, variant, admitted[turn++ % admitted.length]!);

      const found = Object.fromEntries(
        Object.entries(failures).map(([k, v]) => [k, v.slice(start[k]).slice(0, 15)]),
      );
      expect(found).toEqual(Object.fromEntries(Object.keys(failures).map((k) => [k, []])));
    },
  );

  it('leaves no secret in any answer or log line, no file outside the uploads folder, no polluted prototype', async () => {
    for (const line of logLines) scanner.scanText('log line', line);
    expect(logLines.length).toBeGreaterThan(clients.requests);
    expect(scanner.findings.slice(0, 20)).toEqual([]);
    for (const path of ['/tmp/escaped.mp3', '/etc/cron.d/escaped.mp3', `${tmpdir()}/escaped.mp3`])
      expect(existsSync(path)).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('still serves, with the daemon answering, and nothing crashed', async () => {
    const adminKey = world.principals.all.find((p) => p.name === 'admin key')!;
    const health = await t.app.fetch(new Request(`${TEST_ORIGIN}/api/health`));
    expect(health.status).toBe(200);
    const bot = await t.app.fetch(
      new Request(`${TEST_ORIGIN}/api/bot/${world.botId}`, { headers: credentialHeaders(adminKey) }),
    );
    expect(bot.status).toBe(200);
    expect(counts.crashes).toBe(0);
    console.log(
      `fuzz: ${clients.requests} requests (${counts.badInputs} hostile) over ${operations.length} operations, ` +
        `${world.principals.all.length} kinds of caller and ${classesTried.size} kinds of variant:`,
    );
    console.table(Object.fromEntries([...classesTried].map(([kind, tried]) => [kind, { tried }])));
  });
});
