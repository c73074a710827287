/**
 * The audio player's VoiceSink on top of the bot's TS3 client. The player lives as long as the bot and
 * outlives connections, so frames that arrive while no client is connected are dropped here instead
 * of throwing inside the shared frame clock. A packet built ahead on a connection that has since been
 * replaced is built again by the new one as it is sent (Ts3Client.sendPrepared), never sent stale.
 */
import type { PreparedVoice, VoiceSink } from '../../audio/voice-sink';
import { PreparedVoicePacket, type Ts3Client } from '../../ts3';

export class Ts3VoiceSink implements VoiceSink {
  private client: Ts3Client | undefined;
  /** The listen-along feed's tap, set only while someone listens (so nobody listening costs nothing). */
  tap: ((opusFrame: Uint8Array) => void) | undefined;

  attach(client: Ts3Client): void {
    this.client = client;
  }

  detach(): void {
    this.client = undefined;
  }

  prepareVoice(opusFrame: Uint8Array): PreparedVoice | undefined {
    return this.client?.connected ? this.client.prepareVoice(opusFrame) : undefined;
  }

  sendVoice(opusFrame: Uint8Array, prepared?: PreparedVoice): void {
    this.tap?.(opusFrame);
    if (!this.client?.connected) return;
    if (prepared instanceof PreparedVoicePacket) this.client.sendPrepared(prepared);
    else this.client.sendVoice(opusFrame);
  }

  endVoice(): void {
    if (this.client?.connected) this.client.endVoice();
  }
}
