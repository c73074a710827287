/**
 * The TCP half of a file-transfer upload (paper §5; TS3AudioBot TsBaseFunctions.FileTransfer.cs): connect to
 * the transfer port, write the ASCII ftkey, then the file bytes from `seekpos`, then close.
 */
import { connect } from 'node:net';

export interface UploadTarget {
  host: string;
  port: number;
  key: string;
  seekPosition: number;
}

export function uploadOverTcp(target: UploadTarget, data: Uint8Array, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: target.host, port: target.port });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('file transfer timed out')));
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.write(Buffer.from(target.key, 'ascii'));
      socket.end(Buffer.from(data.subarray(target.seekPosition)));
    });
    socket.once('close', (hadError) => {
      if (!hadError) resolve();
    });
  });
}
