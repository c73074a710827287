/**
 * Structured logging: JSON lines (pino) by default, pretty-printed when LOG_PRETTY=1 (what `make run`
 * sets in a terminal). Loggers are named after the layer (`api`, `bus`, `ts3.packet`, `audio.scheduler`);
 * a bot gets a child logger with its id. Secrets are redacted by path wherever they appear.
 */
import { type Logger, pino } from 'pino';

export type { Logger };

const redactPaths = [
  'password',
  '*.password',
  'newPassword',
  'currentPassword',
  'cookie',
  '*.cookie',
  'clientSecret',
  '*.clientSecret',
  'rawKey',
  'apiKey',
  'serverPassword',
  'channelPassword',
  'identity',
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
];

function createRootLogger(): Logger {
  const level = process.env.LOG_LEVEL ?? (process.env.VITEST ? 'silent' : 'info');
  const pretty = process.env.LOG_PRETTY === '1';
  return pino({
    level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'HH:MM:ss.l' } } }
      : {}),
  });
}

export const rootLogger: Logger = createRootLogger();

/** A logger for one layer of the system, e.g. `logger('ts3.packet')`. */
export function logger(name: string): Logger {
  return rootLogger.child({ name });
}
