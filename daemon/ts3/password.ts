/** Server and channel passwords travel as base64(SHA-1(utf8)) (paper §4.4); empty stays empty. */
import { createHash } from 'node:crypto';

export function hashPassword(password: string | undefined): string {
  if (!password) return '';
  return createHash('sha1').update(password, 'utf8').digest('base64');
}
