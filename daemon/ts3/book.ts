/** What the client knows about the server: channels and visible clients, kept current by notifications. */
import type { ChannelInfo, ClientInfo } from './notifications';

export class Book {
  readonly channels = new Map<number, ChannelInfo>();
  readonly clients = new Map<number, ClientInfo>();

  clientsIn(channelId: number): ClientInfo[] {
    return [...this.clients.values()].filter((c) => c.channelId === channelId);
  }

  /**
   * A channel by id, by name, or by path `Parent/Child` (names from the top; `/` inside a name cannot be
   * addressed this way, as in the official client's default-channel field).
   */
  findChannel(ref: number | string): ChannelInfo | undefined {
    if (typeof ref === 'number') return this.channels.get(ref);
    const names = ref.split('/').filter((s) => s !== '');
    if (names.length === 1) {
      // A bare name: prefer a top-level channel, else any channel of that name.
      const all = [...this.channels.values()].filter((c) => c.name === names[0]);
      return all.find((c) => c.parentId === 0) ?? all[0];
    }
    let parentId = 0;
    let found: ChannelInfo | undefined;
    for (const name of names) {
      found = [...this.channels.values()].find((c) => c.parentId === parentId && c.name === name);
      if (!found) return undefined;
      parentId = found.id;
    }
    return found;
  }
}
