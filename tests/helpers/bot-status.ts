/**
 * A bot's status as a daemon reports it, for tests that stand in for a daemon on the bus: connected,
 * playing nothing in particular, with what the test cares about given as `fields`.
 */
import type { BotStatus } from '../../shared/domain/schemas';

export const connectedStatus = (id: string, fields: Partial<BotStatus> = {}): BotStatus => ({
  id,
  name: id,
  connected: true,
  playing: true,
  paused: false,
  currentSong: null,
  queueSize: 0,
  volume: 40,
  playMode: 'seq',
  elapsed: 0,
  skipVotes: { votes: 0, needed: 0 },
  listeners: 0,
  ...fields,
});
