/**
 * Typed views of the notifications a bot reacts to (tsdeclarations Messages.toml). Each takes one parsed
 * list item; missing numeric fields read as 0, missing strings as ''.
 */

type Item = Record<string, string>;

const num = (item: Item, key: string): number => {
  const n = Number(item[key] ?? 0);
  return Number.isFinite(n) ? n : 0;
};
const str = (item: Item, key: string): string => item[key] ?? '';

/** `reasonid` (Enums.toml ReasonIdentifier). */
export const Reason = {
  None: 0,
  Moved: 1,
  Subscription: 2,
  LostConnection: 3,
  KickedFromChannel: 4,
  KickedFromServer: 5,
  Banned: 6,
  ServerStopped: 7,
  Disconnected: 8,
  ChannelUpdated: 9,
  ChannelEdited: 10,
  ServerShutdown: 11,
} as const;

/** `targetmode` of text messages. */
export const TextTarget = { Client: 1, Channel: 2, Server: 3 } as const;
export type TextTarget = (typeof TextTarget)[keyof typeof TextTarget];

export interface ClientInfo {
  id: number;
  channelId: number;
  nickname: string;
  uid: string;
  databaseId: number;
  /** 0 = voice client, 1 = query client. */
  type: number;
  serverGroups: number[];
  channelGroupId: number;
  away: boolean;
  awayMessage: string;
  description: string;
  avatarHash: string;
  talkPower: number;
}

export function clientFromEnterView(item: Item): ClientInfo {
  return {
    id: num(item, 'clid'),
    channelId: num(item, 'ctid'),
    nickname: str(item, 'client_nickname'),
    uid: str(item, 'client_unique_identifier'),
    databaseId: num(item, 'client_database_id'),
    type: num(item, 'client_type'),
    serverGroups: str(item, 'client_servergroups')
      .split(',')
      .filter((s) => s !== '')
      .map(Number),
    channelGroupId: num(item, 'client_channel_group_id'),
    away: str(item, 'client_away') === '1',
    awayMessage: str(item, 'client_away_message'),
    description: str(item, 'client_description'),
    avatarHash: str(item, 'client_flag_avatar'),
    talkPower: num(item, 'client_talk_power'),
  };
}

/** The client fields `notifyclientupdated` may change. */
export function clientUpdates(item: Item): Partial<ClientInfo> {
  const full = clientFromEnterView(item);
  const changes: Partial<ClientInfo> = {};
  const fields: [string, keyof ClientInfo][] = [
    ['client_nickname', 'nickname'],
    ['client_away', 'away'],
    ['client_away_message', 'awayMessage'],
    ['client_description', 'description'],
    ['client_flag_avatar', 'avatarHash'],
    ['client_servergroups', 'serverGroups'],
    ['client_channel_group_id', 'channelGroupId'],
    ['client_talk_power', 'talkPower'],
  ];
  for (const [wire, key] of fields) if (wire in item) Object.assign(changes, { [key]: full[key] });
  return changes;
}

export interface ChannelInfo {
  id: number;
  parentId: number;
  name: string;
  topic: string;
  description: string;
  order: number;
  hasPassword: boolean;
  isDefault: boolean;
  /** Whether voice in this channel travels unencrypted (with encryption mode "per channel"). */
  codecUnencrypted: boolean;
}

export function channelFromList(item: Item): ChannelInfo {
  return {
    id: num(item, 'cid'),
    parentId: num(item, 'cpid'),
    name: str(item, 'channel_name'),
    topic: str(item, 'channel_topic'),
    description: str(item, 'channel_description'),
    order: num(item, 'channel_order'),
    hasPassword: str(item, 'channel_flag_password') === '1',
    isDefault: str(item, 'channel_flag_default') === '1',
    codecUnencrypted: str(item, 'channel_codec_is_unencrypted') !== '0',
  };
}

/** The channel fields `notifychanneledited` may change. */
export function channelUpdates(item: Item): Partial<ChannelInfo> {
  const full = channelFromList(item);
  const changes: Partial<ChannelInfo> = {};
  const fields: [string, keyof ChannelInfo][] = [
    ['channel_name', 'name'],
    ['channel_topic', 'topic'],
    ['channel_description', 'description'],
    ['channel_order', 'order'],
    ['channel_flag_password', 'hasPassword'],
    ['channel_codec_is_unencrypted', 'codecUnencrypted'],
  ];
  for (const [wire, key] of fields) if (wire in item) Object.assign(changes, { [key]: full[key] });
  return changes;
}

export interface TextMessage {
  mode: TextTarget;
  message: string;
  /** For private messages, the receiving client id. */
  targetId: number;
  invokerId: number;
  invokerName: string;
  invokerUid: string;
}

export function textMessageFrom(item: Item): TextMessage {
  const mode = num(item, 'targetmode');
  return {
    mode: mode === 1 || mode === 3 ? mode : TextTarget.Channel,
    message: str(item, 'msg'),
    targetId: num(item, 'target'),
    invokerId: num(item, 'invokerid'),
    invokerName: str(item, 'invokername'),
    invokerUid: str(item, 'invokeruid'),
  };
}

export interface ClientLeft {
  clientId: number;
  reasonId: number;
  message: string;
  fromChannelId: number;
}

export function clientLeftFrom(item: Item): ClientLeft {
  return {
    clientId: num(item, 'clid'),
    reasonId: num(item, 'reasonid'),
    message: str(item, 'reasonmsg'),
    fromChannelId: num(item, 'cfid'),
  };
}

export interface ClientMoved {
  clientId: number;
  reasonId: number;
  toChannelId: number;
  /** 0 when the server left it out; the book fills it in from what it knew. */
  fromChannelId: number;
}

export function clientMovedFrom(item: Item): ClientMoved {
  return {
    clientId: num(item, 'clid'),
    reasonId: num(item, 'reasonid'),
    toChannelId: num(item, 'ctid'),
    fromChannelId: num(item, 'cfid'),
  };
}

export interface CommandError {
  id: number;
  message: string;
  returnCode: string;
}

export function commandErrorFrom(item: Item): CommandError {
  return { id: num(item, 'id'), message: str(item, 'msg'), returnCode: str(item, 'return_code') };
}
