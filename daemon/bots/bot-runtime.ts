/**
 * One bot inside the daemon: its stored configuration and everything live about it. Commands from
 * the bus arrive here one at a time per bot (the daemon serializes them), and each returns a
 * BotReply whose `status` the api answers with.
 */
import type { BotCommand, BotReply } from '../../shared/bus/messages';
import type { bots } from '../../shared/db/schema';
import type { BotStatus } from '../../shared/domain/schemas';

export type BotRow = typeof bots.$inferSelect;

type OpHandler = (runtime: BotRuntime, command: BotCommand) => BotReply | Promise<BotReply>;

const OPS: Record<string, OpHandler> = {
  status: (runtime) => ({ ok: true, status: 200, data: runtime.status() }),
};

export class BotRuntime {
  constructor(private config: BotRow) {}

  get id(): string {
    return this.config.id;
  }

  /** A changed configuration applies to what is read from it now; connection fields on the next start. */
  reconfigure(config: BotRow): void {
    this.config = config;
  }

  status(): BotStatus {
    return {
      id: this.config.id,
      name: this.config.name,
      connected: false,
      playing: false,
      paused: false,
      currentSong: null,
      queueSize: 0,
      volume: this.config.volume,
      playMode: this.config.playMode,
      elapsed: 0,
    };
  }

  async handle(command: BotCommand): Promise<BotReply> {
    const handler = OPS[command.op];
    if (!handler) return { ok: false, status: 400, message: `unknown operation ${command.op}` };
    return handler(this, command);
  }

  async dispose(): Promise<void> {}
}
