/** Avatar facts (TS3AudioBot UploadAvatar; tsdeclarations clientdbinfo sample). */
import { createHash } from 'node:crypto';

/** `client_flag_avatar` after an upload: the lowercase hex MD5 of the uploaded bytes. */
export function avatarFlag(data: Uint8Array): string {
  return createHash('md5').update(data).digest('hex');
}

/**
 * The file a server stores a client's avatar as: `avatar_` + client_base64HashClientUID, which is the 20
 * uid bytes in hex with the digits 0–f written as the letters a–p.
 */
export function avatarFileName(uid: string): string {
  const letters = [...Buffer.from(uid, 'base64').toString('hex')].map((d) =>
    String.fromCharCode(97 + Number.parseInt(d, 16)),
  );
  return `avatar_${letters.join('')}`;
}
