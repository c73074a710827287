/** The TS3 voice client for the bot runtime. Everything below the client is internal to daemon/ts3. */
export {
  CODEC_OPUS_MUSIC,
  type ConnectedInfo,
  type DisconnectReason,
  type TalkStatus,
  Ts3Client,
  type Ts3ClientEvents,
  type Ts3ClientOptions,
} from './client';
export type { ClientVersion } from './client-version';
export { type ConnectFailure, TS3_ERROR, Ts3CommandError, Ts3ConnectError } from './errors';
export { Identity, importOfficial, importPlain, importPrivateDer } from './identity';
export { parseLicenseRoot, TEAMSPEAK_LICENSE_ROOT } from './license';
export type { ChannelInfo, ClientInfo, ClientLeft, ClientMoved, TextMessage } from './notifications';
export { TextTarget } from './notifications';
export { PreparedVoicePacket } from './packet-handler';
export { DEFAULT_SECURITY_LEVEL, raiseSecurityLevel } from './raise-security-level';
