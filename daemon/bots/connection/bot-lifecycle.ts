/**
 * A bot's connection to its voice server as a state machine with explicit transitions (after TSLib's
 * `ChangeState`): every move goes through `setState`, which refuses any (from, to) pair not listed in
 * TRANSITIONS. Each state carries only what exists in it: a client while connecting or connected, a
 * timer while waiting to reconnect.
 *
 * - `start()` begins connecting; the caller waits for `connected` with a deadline (entersState) and
 *   calls `stop()` to tear the attempt down when it passes.
 * - A connection lost without our asking (server gone, timeout) waits with backoff and reconnects, for
 *   as long as it takes, until `stop()`. A kick or ban is a decision by the server's admins: the bot
 *   stays disconnected.
 * - A nickname the server refuses as in use is tried again at once with the next suffixed nickname
 *   (nickname-attempts.ts), within the same attempt: connecting → connecting with a fresh client.
 */
import { EventEmitter } from 'node:events';
import type { Logger } from '../../../shared/logger';
import { type DisconnectReason, TS3_ERROR, type Ts3Client, Ts3ConnectError } from '../../ts3';
import { NICKNAME_ATTEMPTS } from './nickname-attempts';
import { DEFAULT_RECONNECT_BACKOFF, type ReconnectBackoff, reconnectDelayMs } from './reconnect-backoff';

export type ConnectionState =
  | { status: 'disconnected' }
  /**
   * `reconnectAttempt` is set when this attempt follows an unexpected disconnect; `nicknameAttempt`
   * counts the nicknames the server refused as in use so far.
   */
  | {
      status: 'connecting';
      client: Ts3Client;
      reconnectAttempt: number | undefined;
      nicknameAttempt: number;
    }
  | { status: 'connected'; client: Ts3Client }
  | { status: 'reconnecting'; attempt: number; timer: NodeJS.Timeout }
  | { status: 'disposed' };
export type ConnectionStatus = ConnectionState['status'];

/** Why a connect attempt failed: the client's words, and the voice server's error id when it refused. */
export interface ConnectAttemptFailure {
  message: string;
  serverErrorId?: number;
}

const TRANSITIONS: Record<ConnectionStatus, readonly ConnectionStatus[]> = {
  disconnected: ['connecting', 'disposed'],
  connecting: ['connecting', 'connected', 'disconnected', 'reconnecting', 'disposed'],
  connected: ['disconnected', 'reconnecting', 'disposed'],
  reconnecting: ['connecting', 'disconnected', 'disposed'],
  disposed: [],
};

const RECONNECT_REASONS: ReadonlySet<DisconnectReason> = new Set(['connectionLost', 'serverShutdown']);

export interface BotLifecycleOptions {
  /**
   * A fresh client for each attempt (a Ts3Client connects once), joining with the nickname of
   * `nicknameAttempt` (nicknameForAttempt: 0 is the configured one).
   */
  createClient: (nicknameAttempt: number) => Ts3Client;
  log: Logger;
  backoff?: ReconnectBackoff;
}

export interface BotLifecycleEvents {
  stateChange: [from: ConnectionState, to: ConnectionState];
}

export class BotLifecycle extends EventEmitter<BotLifecycleEvents> {
  private current: ConnectionState = { status: 'disconnected' };
  /** Why the last connect attempt failed, for the start receipt. */
  private lastFailure: ConnectAttemptFailure | undefined;

  constructor(private readonly options: BotLifecycleOptions) {
    super();
  }

  get state(): ConnectionState {
    return this.current;
  }

  get connected(): boolean {
    return this.current.status === 'connected';
  }

  get failure(): ConnectAttemptFailure | undefined {
    return this.lastFailure;
  }

  /** Begins connecting; a pending reconnect is replaced by an attempt right now. */
  start(): void {
    const state = this.current;
    switch (state.status) {
      case 'connected':
      case 'connecting':
        return;
      case 'reconnecting':
        clearTimeout(state.timer);
        this.connect(undefined, 0);
        return;
      case 'disconnected':
        this.connect(undefined, 0);
        return;
      case 'disposed':
        throw new Error('BotLifecycle.start() after dispose');
    }
  }

  /** Leaves the server (or abandons the attempt, or the wait to reconnect). */
  async stop(): Promise<void> {
    const state = this.current;
    switch (state.status) {
      case 'connecting':
        this.setState({ status: 'disconnected' });
        await state.client.disconnect();
        return;
      case 'connected':
        this.setState({ status: 'disconnected' });
        await state.client.disconnect();
        return;
      case 'reconnecting':
        clearTimeout(state.timer);
        this.setState({ status: 'disconnected' });
        return;
      case 'disconnected':
      case 'disposed':
        return;
    }
  }

  async dispose(): Promise<void> {
    await this.stop();
    if (this.current.status !== 'disposed') this.setState({ status: 'disposed' });
    this.removeAllListeners();
  }

  private connect(reconnectAttempt: number | undefined, nicknameAttempt: number): void {
    const client = this.options.createClient(nicknameAttempt);
    this.lastFailure = undefined;
    this.setState({ status: 'connecting', client, reconnectAttempt, nicknameAttempt });
    client.on('disconnected', ({ reason, message }) => this.onDisconnected(client, reason, message));
    client.connect().then(
      () => this.onConnected(client),
      (error: unknown) => this.onConnectFailed(client, attemptFailureOf(error)),
    );
  }

  private onConnected(client: Ts3Client): void {
    const state = this.current;
    if (state.status !== 'connecting' || state.client !== client) return;
    this.setState({ status: 'connected', client });
  }

  private onConnectFailed(client: Ts3Client, failure: ConnectAttemptFailure): void {
    const state = this.current;
    if (state.status !== 'connecting' || state.client !== client) return;
    this.lastFailure = failure;
    const nicknameAttempt = state.nicknameAttempt + 1;
    if (failure.serverErrorId === TS3_ERROR.clientNicknameInUse && nicknameAttempt < NICKNAME_ATTEMPTS) {
      this.options.log.info({ nicknameAttempt }, 'nickname in use; joining under another');
      this.connect(state.reconnectAttempt, nicknameAttempt);
      return;
    }
    this.options.log.warn({ reason: failure.message }, 'connect failed');
    if (state.reconnectAttempt === undefined) this.setState({ status: 'disconnected' });
    else this.waitToReconnect(state.reconnectAttempt + 1);
  }

  private onDisconnected(client: Ts3Client, reason: DisconnectReason, message: string): void {
    const state = this.current;
    if (state.status !== 'connected' || state.client !== client) return;
    this.options.log.warn({ reason, message }, 'disconnected by the server');
    if (RECONNECT_REASONS.has(reason)) this.waitToReconnect(0);
    else this.setState({ status: 'disconnected' });
  }

  private waitToReconnect(attempt: number): void {
    const delayMs = reconnectDelayMs(attempt, this.options.backoff ?? DEFAULT_RECONNECT_BACKOFF);
    const timer = setTimeout(() => this.connect(attempt, 0), delayMs);
    this.options.log.info({ attempt, delayMs }, 'reconnecting');
    this.setState({ status: 'reconnecting', attempt, timer });
  }

  private setState(next: ConnectionState): void {
    const previous = this.current;
    if (!TRANSITIONS[previous.status].includes(next.status))
      throw new Error(`bot connection cannot go from ${previous.status} to ${next.status}`);
    this.current = next;
    this.emit('stateChange', previous, next);
  }
}

function attemptFailureOf(error: unknown): ConnectAttemptFailure {
  if (!(error instanceof Error)) return { message: String(error) };
  const serverErrorId = error instanceof Ts3ConnectError ? error.serverErrorId : undefined;
  return serverErrorId === undefined ? { message: error.message } : { message: error.message, serverErrorId };
}
