/**
 * Structured logging: JSON lines (pino) by default, pretty-printed when LOG_PRETTY=1 (what `make run`
 * sets in a terminal). Loggers are named after the layer (`api`, `bus`, `ts3.packet`, `audio.scheduler`);
 * a bot gets a child logger with its id. Secrets are redacted by path wherever they appear.
 */
import { type Logger, pino } from 'pino';

export type { Logger };

/** Field names that hold a secret: redacted at the top of a log line's object and two levels down. */
const SECRET_FIELDS = [
  'password',
  'newPassword',
  'currentPassword',
  'serverPassword',
  'channelPassword',
  'cookie',
  'clientSecret',
  'rawKey',
  'apiKey',
  'identity',
  'token',
  'accessToken',
  'refreshToken',
  'authorization',
  'credential',
];

const redactPaths = [
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
  'req.headers["x-api-key"]',
];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** How a process (or thread) logs: parsed from LOG_LEVEL and LOG_PRETTY by the entry. */
export interface LoggingConfig {
  level: (typeof LOG_LEVELS)[number];
  pretty: boolean;
}

function createRootLogger({ level, pretty }: LoggingConfig): Logger {
  const options = { level, redact: { paths: redactPaths, censor: '[redacted]' } };
  if (pretty) {
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'HH:MM:ss.l' } },
    });
  }
  return pino(options, stdoutDestination());
}

/**
 * Set once the process is about to exit (markExiting). pino writes stdout asynchronously and flushes
 * what is left synchronously at exit; when whoever reads stdout has stopped reading (a supervisor or a
 * test runner going away first), sonic-boom 4 retries that synchronous write forever, so the process
 * never exits. Past this point a stdout that takes no more gets no more: the lines left are dropped.
 */
let exiting = false;

export function markExiting(): void {
  exiting = true;
}

function stdoutDestination() {
  const destination = pino.destination({ dest: 1, sync: false, retryEAGAIN: () => !exiting });
  const flushSync = destination.flushSync;
  destination.flushSync = function flushSyncUnlessStuck(this: typeof destination) {
    try {
      flushSync.call(this);
    } catch {
      // The rest did not fit (EAGAIN with retries refused): dropped, as above.
    }
  };
  return destination;
}

/**
 * Silent until an entry configures logging, which is what tests want; every entry (main.ts,
 * api/main.ts, daemon/main.ts, the daemon thread, each audio worker, the bench processes) does so
 * first thing, from its own configuration or the one handed to its thread.
 */
let current: LoggingConfig = { level: 'silent', pretty: false };
let root = createRootLogger(current);

/** Sets how this thread logs from now on, loggers made earlier included. */
export function configureLogging(config: LoggingConfig): void {
  current = { ...config };
  root = createRootLogger(current);
}

/** How this thread logs, to hand to a thread it starts. */
export function loggingConfig(): LoggingConfig {
  return { ...current };
}

export interface LoggerOptions {
  /**
   * Every line of this logger has fields known to hold no secret (the api's request line), so the
   * redaction of secret fields is skipped: its wildcard paths walk every object of a line, about 30 µs
   * a line, more than the whole request the line reports (docs/performance.md).
   */
  noSecrets?: boolean;
}

/**
 * A logger for one layer of the system, e.g. `logger('ts3.packet')`. Modules make theirs when they
 * load, before their entry has configured logging, so each call goes to the root configured now.
 */
export function logger(name: string, options: LoggerOptions = {}): Logger {
  const childOptions = options.noSecrets ? { redact: [] } : undefined;
  let made: { from: Logger; child: Logger } | undefined;
  const target = (): Logger => {
    if (made?.from !== root) made = { from: root, child: root.child({ name }, childOptions) };
    return made.child;
  };
  return new Proxy({} as Logger, {
    get(_, property) {
      const child = target();
      const value: unknown = Reflect.get(child, property, child);
      return typeof value === 'function' ? value.bind(child) : value;
    },
    set(_, property, value) {
      return Reflect.set(target(), property, value);
    },
  });
}
