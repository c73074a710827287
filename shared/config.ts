/**
 * Process configuration, parsed once from the environment by each entry (main.ts, api/main.ts,
 * daemon/main.ts, and the bench and test entries) and handed down from there: nothing deeper reads
 * the environment, so a module behaves the same on the main thread, on the daemon's worker thread and
 * in a test that builds it with its own values. Every variable is listed in README.md.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { LOG_LEVELS, type LoggingConfig } from './logger';
import type { FfmpegLocation } from './media/ffmpeg-locator';
import { LOCALES, type Locale } from './receipts';
import { PLATFORM_ENV, type PlatformOptions, platformOptions } from './sources/platform-config';

/** Where `make` builds native/pcm-decoder.c (scripts/build-native.sh). */
const BUILT_DECODER_PATH = fileURLToPath(new URL('../build/pcm-decoder', import.meta.url));

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

const envSchema = z.object({
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  DATABASE_AUTH_TOKEN: z.string().optional(),
  NATS_URL: z.string().optional(),
  PUBLIC_URL: z.string().url().optional(),
  TRUST_PROXY: flag,
  DAEMON_ID: z
    .string()
    .regex(/^[\w-]{1,64}$/, 'DAEMON_ID may hold letters, digits, _ and - (it is a key in the lease bucket)')
    .optional(),
  LEASE_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  BUS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(4000),
  SERVICE_TOKEN: z.string().min(32, 'SERVICE_TOKEN must be at least 32 characters').optional(),
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  DAEMON_METRICS_PORT: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number().int().min(1).max(65535).optional(),
  ),
  API_URL: z.string().url().optional(),
  UPLOAD_QUOTA_MB: z.coerce.number().int().min(1).default(2048),
  CHAT_PREFIX: z.string().min(1).max(3).regex(/^\S+$/, 'CHAT_PREFIX must not contain spaces').default('!'),
  OPUS_FORCE_WASM: flag,
  FFMPEG_PATH: z.string().optional(),
  AUDIO_DECODER: z.enum(['auto', 'ffmpeg']).default('auto'),
  PATH: z.string().default(''),
  TS3_LICENSE_ROOT: z.string().optional(),
  LOCALE: z.enum(LOCALES).default('en'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  LOG_PRETTY: flag,
  BASE_PATH: z
    .string()
    .regex(/^(\/[\w.~-]+)*\/?$/, 'BASE_PATH must be a URL path such as /music-bot')
    .default(''),
  // Each platform's own variables (YTDLP_*, LIBRESPOT_PATH, …), from its module's configuration slice.
  ...PLATFORM_ENV,
});

/** The process configuration: the common options and each platform's (its module's slice). */
export type AppConfig = CommonConfig & PlatformOptions;

interface CommonConfig {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string;
  databaseAuthToken: string | undefined;
  natsUrl: string | undefined;
  publicUrl: string | null;
  trustProxy: boolean;
  /** Unique per running daemon: its name on the bus and in the lease bucket. */
  daemonId: string;
  /** Copies of the lease bucket a daemon creates in a JetStream cluster (3 on a three-node cluster). */
  leaseReplicas: number;
  /** Default deadline of a bus request; kept under 5 s so an unanswered request becomes 503 in time. */
  busTimeoutMs: number;
  /**
   * Shared secret with which a daemon's chat commands call the REST API as the chat service.
   * One process (`make run`) makes a random one; scaled out, every api and daemon needs the same.
   */
  serviceToken: string;
  /**
   * Bearer token a scraper reads `GET /metrics` with (admins may read it with their session or API
   * key too); undefined: admins only, and no daemon metrics listener.
   */
  metricsToken: string | undefined;
  /** Port of a daemon's own /metrics listener when it runs apart from the api (daemon/main.ts); undefined: none. */
  daemonMetricsPort: number | undefined;
  /** Where a daemon reaches the REST API for chat commands when it runs apart from the api. */
  apiUrl: string | undefined;
  /** What starts a chat command (`!play …`). */
  chatPrefix: string;
  /** Disk budget of DATA_DIR/uploads: past it the oldest unqueued uploads are evicted. */
  uploadQuotaBytes: number;
  /**
   * The sub-path the browser reaches the service at behind a reverse proxy that strips it (`/music-bot`),
   * without a trailing slash; '' at the root. The web UI's links, API calls and socket are built on it.
   */
  basePath: string;
  /**
   * The Opus encoder wanted: `wasm` with `OPUS_FORCE_WASM=1`, else `system` (the best that loads; see
   * daemon/audio/encode/encoder.ts).
   */
  opusBuild: 'system' | 'wasm';
  /** Where ffmpeg and ffprobe are looked for: `FFMPEG_PATH`, else the usual places on `PATH`. */
  ffmpeg: FfmpegLocation;
  /** `TS3_LICENSE_ROOT`: base64 license root key replacing TeamSpeak's (a test server's own). */
  ts3LicenseRoot: string | undefined;
  /** Language of receipts and chat replies. */
  locale: Locale;
  logging: LoggingConfig;
}

export function loadConfig(env: NodeJS.ProcessEnv): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid environment: ${issues}`);
  }
  const e = parsed.data;
  // A daemon's listener has no accounts to check: the token is its only way in.
  if (e.DAEMON_METRICS_PORT !== undefined && !e.METRICS_TOKEN)
    throw new Error('invalid environment: DAEMON_METRICS_PORT: needs METRICS_TOKEN');
  const dataDir = resolve(e.DATA_DIR);
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? `file:${resolve(dataDir, 'bot.db')}`,
    databaseAuthToken: e.DATABASE_AUTH_TOKEN,
    natsUrl: e.NATS_URL || undefined,
    publicUrl: e.PUBLIC_URL ?? null,
    trustProxy: e.TRUST_PROXY,
    daemonId: e.DAEMON_ID ?? defaultDaemonId(),
    leaseReplicas: e.LEASE_REPLICAS,
    busTimeoutMs: e.BUS_TIMEOUT_MS,
    serviceToken: e.SERVICE_TOKEN ?? randomBytes(32).toString('hex'),
    metricsToken: e.METRICS_TOKEN || undefined,
    daemonMetricsPort: e.DAEMON_METRICS_PORT,
    apiUrl: e.API_URL,
    chatPrefix: e.CHAT_PREFIX,
    ...platformOptions(e),
    uploadQuotaBytes: e.UPLOAD_QUOTA_MB * 1024 * 1024,
    basePath: e.BASE_PATH.replace(/\/+$/, ''),
    opusBuild: e.OPUS_FORCE_WASM ? 'wasm' : 'system',
    ffmpeg: {
      configuredPath: e.FFMPEG_PATH || undefined,
      searchPath: e.PATH,
      decoderPath: e.AUDIO_DECODER === 'auto' ? BUILT_DECODER_PATH : undefined,
    },
    ts3LicenseRoot: e.TS3_LICENSE_ROOT || undefined,
    locale: e.LOCALE,
    logging: { level: e.LOG_LEVEL, pretty: e.LOG_PRETTY },
  };
}

/** Host and pid: unique on one machine, and across containers, whose processes are all pid 1. */
function defaultDaemonId(): string {
  return `daemon-${hostname()
    .replace(/[^\w-]/g, '_')
    .slice(0, 40)}-${process.pid}`;
}
