/**
 * The anonymous device every NetEase Cloud Music call comes from: a 52-hex-digit device id and the
 * anonymous token (`MUSIC_A`) NetEase registers for it, which calls without a login carry
 * (netease-cookies.ts). Registering is one app call (`/xeapi/register/anonimous`, the device id and a
 * digest of it as `username`), made once and kept: in memory for the process and in the settings
 * table (row `neteaseAnonymousDevice`), so the api and the audio daemon, and the next start, reuse it;
 * after a week it is registered again for the same device id. A registration NetEase refuses or that
 * cannot reach it leaves calls without a token (they may then meet code -460) and is tried again ten
 * minutes later, never once per call.
 *
 * Device id, digest (XOR with a fixed key, md5, base64) and call from
 * NeteaseCloudMusicApiEnhanced/api-enhanced (module/register_anonimous.js `cloudmusic_dll_encode_id`,
 * util/index.js `generateDeviceId`, generateConfig.js: the token is kept in a file and reused).
 */
import { createHash, randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema';
import { err, ok, type Result } from '../../result';
import { parseStoredValue, upsertSetting } from '../../settings/stored-value';
import { cookieValues } from '../http/cookies';
import type { AnonymousDevice } from './netease-cookies';
import { SERVICE, send } from './netease-transport';

const SETTING = 'neteaseAnonymousDevice';
const REGISTRATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
const RETRY_MS = 10 * 60 * 1000;
const ID_XOR_KEY = '3go8&$8*3*3h0k(2)2';
const HEX = '0123456789ABCDEF';

const StoredSchema = z.object({
  deviceId: z.string().regex(/^[0-9A-F]{52}$/),
  musicA: z.string().min(1),
  registeredAt: z.number(),
});
type Stored = z.output<typeof StoredSchema>;

interface Held {
  device: AnonymousDevice;
  /** When to look again: the registration's age limit, or the next try after a failure. */
  until: number;
}

let database: Db | undefined;
let held: Promise<Held> | undefined;

/** Keeps the device in this database (the first one named wins: one database per process). */
export function keepDeviceIn(db: Db): void {
  database ??= db;
}

const newDeviceId = () => Array.from({ length: 52 }, () => HEX.charAt(randomInt(HEX.length))).join('');

/** The `username` a device registers as: its id and a digest of it, base64. */
export function registrationName(deviceId: string): string {
  const xored = [...deviceId]
    .map((char, i) => String.fromCharCode(char.charCodeAt(0) ^ ID_XOR_KEY.charCodeAt(i % ID_XOR_KEY.length)))
    .join('');
  const digest = createHash('md5').update(xored, 'utf8').digest('base64');
  return Buffer.from(`${deviceId} ${digest}`, 'utf8').toString('base64');
}

async function register(deviceId: string): Promise<Result<string>> {
  const answer = await send(
    '/xeapi/register/anonimous',
    { username: registrationName(deviceId) },
    undefined,
    {
      deviceId,
    },
  );
  if (!answer.ok) return answer;
  const code = (answer.value.json as { code?: unknown }).code;
  const token = cookieValues(answer.value.cookie).get('MUSIC_A');
  return code === 200 && token
    ? ok(token)
    : err(`${SERVICE} did not register an anonymous device (code ${code})`);
}

async function load(): Promise<Stored | undefined> {
  if (!database) return undefined;
  try {
    const row = await database.query.settings.findFirst({ where: eq(settings.key, SETTING) });
    const stored = StoredSchema.safeParse(row && parseStoredValue(row.value));
    return stored.success ? stored.data : undefined;
  } catch {
    // An unreadable store only costs a new registration.
    return undefined;
  }
}

async function save(stored: Stored): Promise<void> {
  if (!database) return;
  // A store that cannot be written only costs a registration on the next start.
  await upsertSetting(database, SETTING, stored).catch(() => undefined);
}

async function obtain(knownId: string | undefined): Promise<Held> {
  const stored = await load();
  if (stored && Date.now() - stored.registeredAt < REGISTRATION_LIFETIME_MS)
    return {
      device: { deviceId: stored.deviceId, musicA: stored.musicA },
      until: stored.registeredAt + REGISTRATION_LIFETIME_MS,
    };
  const deviceId = stored?.deviceId ?? knownId ?? newDeviceId();
  const registered = await register(deviceId);
  if (!registered.ok) return { device: { deviceId }, until: Date.now() + RETRY_MS };
  const record = { deviceId, musicA: registered.value, registeredAt: Date.now() };
  await save(record);
  return {
    device: { deviceId, musicA: record.musicA },
    until: record.registeredAt + REGISTRATION_LIFETIME_MS,
  };
}

/** The device, registered at most once per lifetime (or retry period); concurrent callers share it. */
export async function anonymousDevice(): Promise<AnonymousDevice> {
  const pending = held;
  const current = pending && (await pending);
  if (current && Date.now() < current.until) return current.device;
  if (held === pending) held = obtain(current?.device.deviceId);
  return (await (held ?? obtain(current?.device.deviceId))).device;
}
