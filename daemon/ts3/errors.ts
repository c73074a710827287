/** Errors the client reports to its caller. */

/** Why a connection attempt failed. `timeout` covers a server that never (or no longer) answers. */
export type ConnectFailure = 'timeout' | 'refused' | 'handshake' | 'socket';

/**
 * The error ids (tsdeclarations Errors.csv) a server answers a refused `clientinit` with, as servers
 * send them: the ones a bot's owner can do something about.
 */
export const TS3_ERROR = {
  clientNicknameInUse: 0x0201,
  clientCouldNotValidateIdentity: 0x0207,
  clientTooManyClonesConnected: 0x0209,
  clientVersionOutdated: 0x020a,
  clientLoginNotPermitted: 0x020f,
  channelInvalidPassword: 0x030d,
  serverMaxClientsReached: 0x0403,
  serverInvalidPassword: 0x0404,
  permissionsClientInsufficient: 0x0a08,
  connectFailedBanned: 0x0d01,
  banFlooding: 0x0d03,
} as const;

export class Ts3ConnectError extends Error {
  /** `serverErrorId`: the id of the server's `error` when it refused the connection (TS3_ERROR). */
  constructor(
    readonly kind: ConnectFailure,
    message: string,
    readonly serverErrorId?: number,
  ) {
    super(message);
    this.name = 'Ts3ConnectError';
  }
}

/** The server answered a command with `error id != 0` (tsdeclarations Errors.csv), or not at all. */
export class Ts3CommandError extends Error {
  constructor(
    readonly command: string,
    readonly id: number,
    message: string,
  ) {
    super(`${command} failed: ${message} (error ${id})`);
    this.name = 'Ts3CommandError';
  }
}
