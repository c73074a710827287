/**
 * Ownership in one process (`make run`, and any daemon on the in-process bus): the only daemon there
 * is owns every bot, at start and as they are created. Nothing to renew, nothing to expire.
 */
import type { BotOwnership, DrainStart, OwnershipFactory, OwnershipHooks } from './bot-ownership';

export class SoleOwnership implements BotOwnership {
  private readonly owned = new Set<string>();

  constructor(private readonly hooks: OwnershipHooks) {}

  async start(): Promise<void> {
    await Promise.all((await this.hooks.listBots()).map((botId) => this.take(botId)));
  }

  botCreated(botId: string): void {
    void this.take(botId);
  }

  async botRemoved(botId: string): Promise<void> {
    this.owned.delete(botId);
  }

  async handOver(): Promise<void> {
    const owned = [...this.owned];
    this.owned.clear();
    await Promise.all(owned.map((botId) => this.hooks.release(botId, 'handover')));
  }

  /** Nobody could take its bots. */
  drain(): DrainStart {
    return { started: false };
  }

  private async take(botId: string): Promise<void> {
    if (await this.hooks.own(botId, undefined)) this.owned.add(botId);
  }
}

export const soleOwnership: OwnershipFactory = (hooks) => new SoleOwnership(hooks);
