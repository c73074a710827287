/**
 * Where the audio player delivers encoded voice. The TS3 client implements it; tests and the bench
 * use collecting or counting sinks.
 */
export interface VoiceSink {
  /**
   * One 20 ms Opus frame (48 kHz stereo), called once per scheduler tick while the bot talks. The frame
   * is lent for the call only (the player reuses its memory for the next one): a sink that keeps it
   * copies it.
   */
  sendVoice(opusFrame: Uint8Array): void;
  /** The bot stops talking (pause, stop, end of track); the client may send its end-of-voice marker. */
  endVoice(): void;
}
