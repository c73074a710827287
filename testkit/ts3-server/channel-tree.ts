/**
 * The test server's channel tree: channels from a spec list (one with a password by default), the
 * `client_default_channel` lookup, and the `channellist` item for a channel.
 */
import type { Params } from '../../daemon/ts3/command';
import { hashPassword } from '../../daemon/ts3/password';

export interface ChannelSpec {
  name: string;
  /** Parent channel name; top level when left out. */
  parent?: string;
  password?: string;
  isDefault?: boolean;
}

export interface ServerChannel {
  id: number;
  parentId: number;
  name: string;
  password: string;
  description: string;
  isDefault: boolean;
}

const DEFAULT_CHANNELS: ChannelSpec[] = [
  { name: 'Lobby', isDefault: true },
  { name: 'Music', password: 'letmein' },
  { name: 'Quiet', parent: 'Music' },
];
export class ChannelTree extends Map<number, ServerChannel> {
  constructor(specs: ChannelSpec[] = DEFAULT_CHANNELS) {
    super();
    let id = 1;
    for (const spec of specs) {
      const parent = spec.parent ? [...this.values()].find((c) => c.name === spec.parent) : undefined;
      this.set(id, {
        id,
        parentId: parent?.id ?? 0,
        name: spec.name,
        password: spec.password ?? '',
        description: '',
        isDefault: spec.isDefault ?? false,
      });
      id++;
    }
  }

  /** A path `A/B`, a bare name anywhere, or `/<id>`; a wrong or missing password lands in the default channel. */
  resolveDefault(ref: string, passwordHash: string): ServerChannel {
    const all = [...this.values()];
    const fallback = all.find((c) => c.isDefault) ?? all[0]!;
    const byId = /^\/(\d+)$/.exec(ref);
    const names = ref.split('/').filter((s) => s !== '');
    let target: ServerChannel | undefined;
    if (byId) target = this.get(Number(byId[1]));
    else if (names.length === 1) target = all.find((c) => c.name === names[0]);
    else {
      for (const name of names) {
        const parentId: number = target?.id ?? 0;
        target = all.find((c) => c.parentId === parentId && c.name === name);
        if (!target) break;
      }
    }
    if (!target || (target.password !== '' && hashPassword(target.password) !== passwordHash))
      return fallback;
    return target;
  }
}

export function channelItem(c: ServerChannel): Params {
  return {
    cid: c.id,
    cpid: c.parentId,
    channel_name: c.name,
    channel_topic: '',
    channel_codec: 5,
    channel_codec_quality: 10,
    channel_order: 0,
    channel_flag_default: c.isDefault,
    channel_flag_password: c.password !== '',
    channel_codec_is_unencrypted: 1,
    channel_needed_talk_power: 0,
  };
}
