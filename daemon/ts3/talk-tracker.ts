/**
 * Who is talking, from the voice packets the server forwards: a talker starts with its first audio
 * packet and stops with the end-of-burst packet, or after a quiet spell in case that packet was lost.
 */

/** A talker without voice for this long has stopped. */
export const TALK_IDLE_MS = 400;

export class TalkTracker {
  private readonly talkers = new Map<number, NodeJS.Timeout>();

  constructor(private readonly onChange: (clientId: number, talking: boolean) => void) {}

  set(clientId: number, talking: boolean): void {
    const timer = this.talkers.get(clientId);
    if (talking && timer) {
      timer.refresh();
      return;
    }
    if (talking) {
      const idle = setTimeout(() => this.set(clientId, false), TALK_IDLE_MS);
      idle.unref();
      this.talkers.set(clientId, idle);
    } else if (timer) {
      clearTimeout(timer);
      this.talkers.delete(clientId);
    } else {
      return;
    }
    this.onChange(clientId, talking);
  }

  clear(): void {
    for (const timer of this.talkers.values()) clearTimeout(timer);
    this.talkers.clear();
  }
}
