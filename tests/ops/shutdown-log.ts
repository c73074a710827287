/** What a process's shutdown (shared/shutdown.ts) logged, read from its output. */
import type { RunningService } from '../../testkit/run-service';

/**
 * The `shutdown` logger's lines: a step as `<step>: <message>`, any other line by its message. Sorted:
 * pino writes asynchronously, and the exit can let a line still being written land after later ones.
 */
export function shutdownLog(service: RunningService): string[] {
  return service
    .output()
    .split('\n')
    .filter((line) => line.includes('"name":"shutdown"'))
    .map((line) => {
      const { step, msg } = JSON.parse(line) as { step?: string; msg: string };
      return step ? `${step}: ${msg}` : msg;
    })
    .sort();
}
