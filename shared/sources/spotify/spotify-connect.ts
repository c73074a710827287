/**
 * Starting one track on the bot's own librespot through Spotify Connect: librespot registers itself
 * as a device of the account once logged in, so the source waits until Spotify lists a device of
 * that name (`GET /me/player/devices`) and then asks Spotify to play the track there
 * (`PUT /me/player/play?device_id=…` with `{uris: ["spotify:track:<id>"]}`). Both need Premium, as
 * librespot does; Spotify's refusal ("Player command failed: Premium required") is passed on.
 *
 * Endpoints from Spotify's Web API reference: Get Available Devices, Start/Resume Playback.
 */
import { err, ok, type Result } from '../../result';
import type { SpotifyClient } from './spotify-client';
import { trackUri } from './spotify-ids';
import { DevicesSchema } from './spotify-schemas';

export interface DeviceWait {
  /** How long librespot may take to log in and show up. */
  timeoutMs: number;
  /** How often the device list is asked meanwhile. */
  intervalMs: number;
}

export const DEFAULT_DEVICE_WAIT: DeviceWait = { timeoutMs: 20_000, intervalMs: 500 };

/** Plays `trackId` on the device called `deviceName`; `signal` ends the wait (librespot exited). */
export async function playOnDevice(
  client: SpotifyClient,
  deviceName: string,
  trackId: string,
  signal: AbortSignal,
  wait: DeviceWait = DEFAULT_DEVICE_WAIT,
): Promise<Result<void>> {
  const device = await waitForDevice(client, deviceName, signal, wait);
  if (!device.ok) return device;
  return client.put('/me/player/play', { device_id: device.value }, { uris: [trackUri(trackId)] });
}

async function waitForDevice(
  client: SpotifyClient,
  deviceName: string,
  signal: AbortSignal,
  { timeoutMs, intervalMs }: DeviceWait,
): Promise<Result<string>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (signal.aborted) return err(String(signal.reason));
    const listed = await client.get('/me/player/devices', {}, DevicesSchema);
    if (!listed.ok) return listed;
    const id = listed.value.devices.find((d) => d.name === deviceName)?.id;
    if (id) return ok(id);
    if (Date.now() + intervalMs > deadline)
      return err(`librespot did not show up as a Spotify device within ${Math.round(timeoutMs / 1000)} s`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
