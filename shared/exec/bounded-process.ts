/**
 * Runs one outside executable to completion with hard limits: no shell (arguments travel as an
 * array, so nothing in them is ever interpreted), a deadline and a cap on how much it may print.
 * The child gets its own process group, so a deadline or an overflow kills whatever it started too
 * (yt-dlp starts a JavaScript runtime for YouTube's player challenges), and we never wait on a
 * grandchild that still holds the output pipe. It starts through the thread's process launcher, so
 * the start forks no large process (on the daemon's thread that would hold up the frame clock).
 */
import { launchProcess } from './process-launcher';

export interface ProcessLimits {
  timeoutMs: number;
  maxOutputBytes: number;
}

/** How a run ended: only `exited` means the program ran to its end. */
export type ProcessOutcome =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }
  /** It never ran: `code` is the system's reason (`ENOENT`, `EACCES`, …). */
  | { kind: 'notStarted'; code: string; message: string }
  | { kind: 'timedOut' }
  | { kind: 'outputTooLarge' };

/** The end of stderr kept for the error message: its last lines are what explain a failure. */
const STDERR_TAIL_CHARS = 8_192;

export function runBounded(
  path: string,
  args: readonly string[],
  limits: ProcessLimits,
): Promise<ProcessOutcome> {
  return new Promise((resolve) => {
    const child = launchProcess(path, args, { detached: true });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let settled = false;
    const finish = (outcome: ProcessOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const killGroup = () => {
      if (child.pid === undefined) return child.kill();
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const timer = setTimeout(() => {
      killGroup();
      finish({ kind: 'timedOut' });
    }, limits.timeoutMs);

    child.once('spawn', () => {
      const io = child.io;
      // Nothing to read on its stdin: it sees the end at once.
      io?.end();
      io?.on('data', (chunk: Buffer) => {
        stdoutBytes += chunk.length;
        if (stdoutBytes > limits.maxOutputBytes) {
          killGroup();
          finish({ kind: 'outputTooLarge' });
        } else stdout.push(chunk);
      });
    });
    child.on('stderr', (chunk) => {
      stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL_CHARS);
    });
    child.on('error', (error) =>
      finish({ kind: 'notStarted', code: error.code ?? 'unknown', message: error.message }),
    );
    child.on('close', (code, signal) =>
      finish({ kind: 'exited', code, signal, stdout: Buffer.concat(stdout).toString(), stderr }),
    );
  });
}
