/**
 * API keys: `tsmb_` plus 40 random base62 characters from a CSPRNG. Only the SHA-256 of the raw key
 * is stored (a fast hash is right here: the key has ~238 bits of entropy, nothing to brute-force),
 * with the first 12 characters kept as a display prefix.
 */
import { hash, randomInt } from 'node:crypto';

export const API_KEY_PREFIX = 'tsmb_';
export const API_KEY_RANDOM_LENGTH = 40;
export const API_KEY_DISPLAY_PREFIX_LENGTH = 12;
export const API_KEYS_PER_USER = 20;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface NewApiKey {
  rawKey: string;
  keyHash: string;
  keyPrefix: string;
}

export function generateApiKey(): NewApiKey {
  let random = '';
  // randomInt draws without modulo bias.
  for (let i = 0; i < API_KEY_RANDOM_LENGTH; i++) random += BASE62[randomInt(BASE62.length)];
  const rawKey = API_KEY_PREFIX + random;
  return { rawKey, keyHash: hashApiKey(rawKey), keyPrefix: rawKey.slice(0, API_KEY_DISPLAY_PREFIX_LENGTH) };
}

/** One-shot `hash`: a request's key is hashed on every request, and a Hash object costs more than the digest. */
export function hashApiKey(rawKey: string): string {
  return hash('sha256', rawKey, 'hex');
}

/** The key a request carries in `Authorization: Bearer` or `X-API-Key`, if any. */
export function apiKeyFromHeaders(
  authorization: string | undefined,
  xApiKey: string | undefined,
): string | undefined {
  if (xApiKey?.trim()) return xApiKey.trim();
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}
