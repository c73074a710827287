/**
 * Runs async tasks one at a time in arrival order: the per-bot lock that keeps concurrent commands
 * from interleaving their queue changes. A failing task does not stop the ones after it.
 */
export class SerialExecutor {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
