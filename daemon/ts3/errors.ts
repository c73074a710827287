/** Errors the client reports to its caller. */

/** Why a connection attempt failed. `timeout` covers a server that never (or no longer) answers. */
export type ConnectFailure = 'timeout' | 'refused' | 'handshake' | 'socket';

export class Ts3ConnectError extends Error {
  constructor(
    readonly kind: ConnectFailure,
    message: string,
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
