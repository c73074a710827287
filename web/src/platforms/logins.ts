/**
 * The platform-login calls the settings, the setup wizard and the account page share (SPEC.md
 * "Platform accounts: /api/auth" and "Personal music account: /api/me/music"): a login's status, and
 * the two QR flows — the bots' shared login and your own linked personal account — as start/poll pairs.
 */
import type { Schemas } from '@api/index';
import { logsInBy, platformFacts } from '@shared/domain/platforms';
import { api, type CallResult, call } from '../api/client';
import type { Platform } from '../music/platforms';
import { PLATFORM_ROUTES } from './platform-routes';

type QrPlatform = Schemas['QrPlatform'];

/** How a QR attempt is started and polled; `QrLogin` takes one. */
export interface QrFlow {
  start(): Promise<CallResult<Schemas['QrCode']>>;
  poll(key: string): Promise<CallResult<Schemas['QrStatus']>>;
}

/** The platforms `POST /api/auth/qrcode` takes (its `QrPlatform` enum): the registry's QR logins. */
export const isQrPlatform = (platform: Platform): platform is QrPlatform => logsInBy(platform, 'qr');
export const takesCookie = (platform: Platform): boolean => logsInBy(platform, 'cookie');
export const takesSms = (platform: Platform): boolean => logsInBy(platform, 'sms');

/** A `server` login as the settings keep it, under the key the platform's facts name. */
export interface KeptServerLogin {
  settingsKey: string;
  stored: Schemas['ServerCredentials'];
}

/** The platform's `server` login in `settings`; undefined until they are read, or when it has none. */
export function serverLoginIn(
  settings: Schemas['Settings'] | null,
  platform: Platform,
): KeptServerLogin | undefined {
  const settingsKey = platformFacts(platform).settingsKey;
  if (!settings || !settingsKey || !logsInBy(platform, 'server')) return undefined;
  // The registry test holds every `server` platform's slice to the ServerCredentials shape.
  const stored = (settings as unknown as Record<string, Schemas['ServerCredentials'] | undefined>)[
    settingsKey
  ];
  return stored && { settingsKey, stored };
}

export const loginStatus = (platform: Platform) =>
  call(api.GET('/api/auth/status', { params: { query: { platform } } }));

/** The bots' shared login of a platform. */
export const sharedQr = (platform: QrPlatform): QrFlow => ({
  start: () => call(api.POST('/api/auth/qrcode', { body: { platform } })),
  poll: (key) => call(api.GET('/api/auth/qrcode/status', { params: { query: { key, platform } } })),
});

/** Your own account, linked to you and never to the bots. */
export const personalQr: QrFlow = {
  start: () => call(api.POST(PLATFORM_ROUTES.personalQr.qrcode)),
  poll: (key) => call(api.GET(PLATFORM_ROUTES.personalQr.qrcodeStatus, { params: { query: { key } } })),
};
