/**
 * Waits until a state machine enters a status, with a deadline (after @discordjs/voice `entersState`).
 * Rejects when the deadline passes or when the machine enters one of the `failOn` statuses first, so a
 * caller never waits out the full deadline for an attempt that has already failed.
 */
export interface StateMachine<S extends { status: string }> {
  readonly state: S;
  on(event: 'stateChange', listener: (from: S, to: S) => void): unknown;
  off(event: 'stateChange', listener: (from: S, to: S) => void): unknown;
}

export class EntersStateError extends Error {
  constructor(
    readonly kind: 'timeout' | 'failed',
    message: string,
  ) {
    super(message);
    this.name = 'EntersStateError';
  }
}

export function entersState<S extends { status: string }>(
  machine: StateMachine<S>,
  status: S['status'],
  timeoutMs: number,
  failOn: readonly S['status'][] = [],
): Promise<void> {
  if (machine.state.status === status) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const finish = (error?: EntersStateError) => {
      clearTimeout(timer);
      machine.off('stateChange', listener);
      if (error) reject(error);
      else resolve();
    };
    const listener = (_from: S, to: S) => {
      if (to.status === status) finish();
      else if (failOn.includes(to.status))
        finish(new EntersStateError('failed', `entered ${to.status} instead of ${status}`));
    };
    const timer = setTimeout(
      () => finish(new EntersStateError('timeout', `did not enter ${status} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    machine.on('stateChange', listener);
  });
}
