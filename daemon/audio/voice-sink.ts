/**
 * Where the audio player delivers encoded voice. The TS3 client implements it (ts3-voice-sink.ts);
 * tests and the bench use collecting or counting sinks.
 *
 * The 20 ms tick must only send: a sink that builds packets (the TS3 one: header, MAC or encryption)
 * builds each frame's ahead of its tick, between ticks (`prepareVoice`), and the tick hands that
 * packet back with its frame (`sendVoice`).
 */

/** A voice packet a sink built ahead of its tick; only that sink knows what is in it. */
export type PreparedVoice = object;

export interface VoiceSink {
  /**
   * Builds the packet for `opusFrame` as the next one to be sent, without sending it or spending
   * anything on it: a prepared packet that is never sent costs nothing. Undefined when there is nothing
   * to build (no connection). The frame is lent for the call only. Sinks that build nothing leave it out.
   */
  prepareVoice?(opusFrame: Uint8Array): PreparedVoice | undefined;
  /**
   * One 20 ms Opus frame (48 kHz stereo), called once per scheduler tick while the bot talks.
   * `prepared` is what `prepareVoice` built for this same frame: sent as it is while it still holds, or
   * built again (a reconnect or a key change in between). The frame is lent for the call only (the
   * player reuses its memory for the next one): a sink that keeps it copies it.
   */
  sendVoice(opusFrame: Uint8Array, prepared?: PreparedVoice): void;
  /** The bot stops talking (pause, stop, end of track); the client may send its end-of-voice marker. */
  endVoice(): void;
}
