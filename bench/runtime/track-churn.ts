/**
 * Track changes inside a window, as real bots have them: N bots playing songs of about 3.5 minutes
 * change track every 210/N s between them (at 150 bots, one every 1.4 s). Each change here is a seek
 * of the next bot in turn, which starts a new decoder exactly as a track change does, while the song
 * stays (no track ends inside a window, and the decoder count holds). The seeking bot buffers meanwhile,
 * which is not counted as missed; what the step's figures show is what each start costs the others.
 */
import { type BotProcess, benchBotName } from './protocol';

export const SONG_SECONDS = 210;
/** Well inside every bench song (each outlasts its engine's run). */
const SEEK_TO_SECONDS = 10;

export interface TrackChurn {
  /** Stops changing tracks; resolves with how many changes were made once each has been answered. */
  stop(): Promise<number>;
}

export function churnTracks(bot: BotProcess, botCount: number): TrackChurn {
  const everyMs = (SONG_SECONDS * 1000) / botCount;
  const answered: Promise<unknown>[] = [];
  const timer = setInterval(() => {
    const name = benchBotName(answered.length % botCount);
    answered.push(bot.call('command', { bot: name, op: 'seek', args: { position: SEEK_TO_SECONDS } }));
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(answered);
      return answered.length;
    },
  };
}
