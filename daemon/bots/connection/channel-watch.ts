/**
 * Who else is in the bot's channel, from the client's enter/leave/move notifications, and who of them
 * is talking. It reports changes only: `alone` when the last other client leaves (or the bot moves into
 * an empty channel) and back, `othersTalking` as voice starts and stops, `membersChanged` when anyone
 * enters, leaves or moves, and `idle` once the channel has stayed empty for the idle timeout.
 */
import { EventEmitter } from 'node:events';
import type { ClientLeft, ClientMoved, TalkStatus, Ts3ClientEvents } from '../../ts3';

/** What the watch reads of the client (a Ts3Client, or a small fake in unit tests). */
export type WatchedClient = Pick<EventEmitter<Ts3ClientEvents>, 'on' | 'off'> & {
  readonly clientId: number;
  clientsInChannel(): readonly { id: number }[];
};

export interface ChannelWatchEvents {
  alone: [alone: boolean];
  othersTalking: [talking: boolean];
  /** Someone entered, left or moved: who is in the channel may have changed. */
  membersChanged: [];
  /** The channel stayed empty for the idle timeout. */
  idle: [];
}

export class ChannelWatch extends EventEmitter<ChannelWatchEvents> {
  private isAlone: boolean;
  private readonly talking = new Set<number>();
  private lastTalking = false;
  private idleTimeoutMs = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly clientListeners = {
    enter: () => this.update(),
    leave: (event: ClientLeft) => {
      this.talking.delete(event.clientId);
      this.update();
    },
    moved: (_event: ClientMoved) => this.update(),
    talk: (status: TalkStatus) => this.onTalk(status),
  };

  constructor(private readonly client: WatchedClient) {
    super();
    this.isAlone = this.othersInChannel().length === 0;
    client.on('clientEnter', this.clientListeners.enter);
    client.on('clientLeave', this.clientListeners.leave);
    client.on('clientMoved', this.clientListeners.moved);
    client.on('talkStatus', this.clientListeners.talk);
  }

  get alone(): boolean {
    return this.isAlone;
  }

  /** In milliseconds, so tests can use short ones (settings speak minutes); 0 switches it off. */
  setIdleTimeout(idleTimeoutMs: number): void {
    this.idleTimeoutMs = idleTimeoutMs;
    this.armIdleTimer();
  }

  dispose(): void {
    clearTimeout(this.idleTimer);
    this.client.off('clientEnter', this.clientListeners.enter);
    this.client.off('clientLeave', this.clientListeners.leave);
    this.client.off('clientMoved', this.clientListeners.moved);
    this.client.off('talkStatus', this.clientListeners.talk);
    this.removeAllListeners();
  }

  private othersInChannel(): number[] {
    const own = this.client.clientId;
    return this.client
      .clientsInChannel()
      .map((c) => c.id)
      .filter((id) => id !== own);
  }

  private update(): void {
    const others = new Set(this.othersInChannel());
    // Someone who moved away stops counting as a talker here.
    for (const id of this.talking) if (!others.has(id)) this.talking.delete(id);
    this.emitTalking();
    this.emit('membersChanged');
    const alone = others.size === 0;
    if (alone === this.isAlone) return;
    this.isAlone = alone;
    this.armIdleTimer();
    this.emit('alone', alone);
  }

  private onTalk({ clientId, talking }: TalkStatus): void {
    if (talking && this.othersInChannel().includes(clientId)) this.talking.add(clientId);
    else this.talking.delete(clientId);
    this.emitTalking();
  }

  private emitTalking(): void {
    const talking = this.talking.size > 0;
    if (talking === this.lastTalking) return;
    this.lastTalking = talking;
    this.emit('othersTalking', talking);
  }

  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (!this.isAlone || this.idleTimeoutMs <= 0) return;
    this.idleTimer = setTimeout(() => this.emit('idle'), this.idleTimeoutMs);
  }
}
