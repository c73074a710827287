/**
 * The process-wide parts of the configuration, applied to the thread that calls this: how it logs and
 * which language its receipts speak. Each entry calls it first with the configuration it parsed; the
 * daemon's thread calls it with the configuration handed to it, so both threads behave alike.
 */
import type { AppConfig } from './config';
import { configureLogging } from './logger';
import { useLocale } from './receipts';

export function configureThread(config: Pick<AppConfig, 'logging' | 'locale'>): void {
  configureLogging(config.logging);
  useLocale(config.locale);
}
