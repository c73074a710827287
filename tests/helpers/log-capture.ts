/**
 * Captures every line the app logs, at trace level, for tests that check no log line carries a
 * credential. vitest hoists `vi.mock` within each file, so the test file keeps its own mock of pino
 * and hands the real module here, importing this helper inside the factory (the factory runs before
 * the file's own imports are ready):
 *
 *   const logLines = vi.hoisted((): string[] => []);
 *   vi.mock(import('pino'), async (importOriginal) =>
 *     (await import('../helpers/log-capture')).pinoAtTraceInto(logLines, await importOriginal()),
 *   );
 */
import type * as Pino from 'pino';

type PinoModule = typeof Pino;

/** The pino module with every logger writing its JSON lines into `lines`, at trace level. */
export function pinoAtTraceInto(lines: string[], real: PinoModule): PinoModule {
  const sink = { write: (line: string) => void lines.push(line) };
  // Every root logger shared/logger.ts makes (silent until configured) logs everything here, whatever
  // destination it asks for; pino's own helpers (pino.destination…) stay as they are.
  const pino = Object.assign(
    (options: Parameters<typeof real.pino>[0]) => real.pino({ ...options, level: 'trace' }, sink),
    real.pino,
  ) as typeof real.pino;
  return { ...real, pino, default: pino };
}
