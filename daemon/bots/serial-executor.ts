/**
 * Runs async tasks one at a time in arrival order: the per-bot lock that keeps concurrent commands
 * from interleaving their queue changes. A failing task does not stop the ones after it.
 */
export class SerialExecutor {
  private tail: Promise<unknown> = Promise.resolve();

  /** `afterEach` runs when a task has settled, before the next one starts. */
  constructor(private readonly afterEach?: () => void) {}

  run<T>(task: () => Promise<T>): Promise<T> {
    const afterEach = this.afterEach;
    const step = afterEach
      ? async () => {
          try {
            return await task();
          } finally {
            afterEach();
          }
        }
      : task;
    const result = this.tail.then(step, step);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
