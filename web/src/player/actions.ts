/**
 * Player calls on one bot, each checked against the principal's access first (a control the principal
 * may not use is never sent) and reported as a receipt or an error in words.
 */
import type { Schemas } from '@api/index';
import { api, type CallResult, call, receiptText } from '../api/client';
import { t } from '../i18n';
import { setElapsed, setLocalVolume } from '../stores/live';
import { can } from '../stores/session';
import { notify, report } from '../stores/toasts';

type PlayMode = Schemas['PlayMode'];
type Song = Schemas['Song'];

const bot = (botId: string) => ({ params: { path: { botId } } });

export const canPlayer = (botId: string, action: string, method: 'POST' | 'DELETE' = 'POST') =>
  can(method, `/api/player/{botId}/${action}`, botId);

/** Receipts of one bot's transport replace each other: pause, play and skips are one running story. */
const transport = (botId: string) => `transport:${botId}`;

export const pause = async (botId: string) =>
  report(await call(api.POST('/api/player/{botId}/pause', bot(botId))), transport(botId));
export const resume = async (botId: string) =>
  report(await call(api.POST('/api/player/{botId}/resume', bot(botId))), transport(botId));
export const next = async (botId: string) =>
  report(await call(api.POST('/api/player/{botId}/next', bot(botId))), transport(botId));
/** A vote to skip, counted with the `!skip` votes of the bot's channel; the receipt says the tally. */
export const voteSkip = async (botId: string) =>
  report(await call(api.POST('/api/player/{botId}/vote-skip', bot(botId))), transport(botId));
export const prev = async (botId: string) =>
  report(await call(api.POST('/api/player/{botId}/prev', bot(botId))), transport(botId));
export const stop = async (botId: string) =>
  report(await call(api.POST('/api/player/{botId}/stop', bot(botId))), transport(botId));
export const clear = async (botId: string) =>
  reportReplacing(botId, await call(api.POST('/api/player/{botId}/clear', bot(botId))));

/** Gives back the queue a play or a clear replaced (the token its answer carried). */
export const undoReplace = async (botId: string, token: string) =>
  report(
    await call(api.POST('/api/player/{botId}/undo', { ...bot(botId), body: { token } })),
    transport(botId),
  );

/**
 * Says what a call that may have replaced the bot's queue did: when it replaced one (`undoToken`) and
 * the principal may take it back, the notice offers Undo.
 */
export function announceReplaced(botId: string, text: string, undoToken: string | undefined): void {
  if (!undoToken || !canPlayer(botId, 'undo')) return void (text && notify(text));
  notify(text, 'info', `replaced:${botId}`, {
    label: t('common.undo'),
    run: () => void undoReplace(botId, undoToken),
  });
}

/** The outcome of a play, play all or clear: its error, or its receipt with Undo where it replaced a queue. */
export function reportReplacing(botId: string, result: CallResult<object>): boolean {
  if (!result.ok) return report(result);
  // Only the answers of calls that replaced a queue carry it (play next, add and append never do).
  const { undoToken } = result.value as { undoToken?: string };
  announceReplaced(botId, receiptText(result.value), undoToken);
  return true;
}

/**
 * The volume last asked for, per bot, while its request is on its way: a step (arrow keys) counts from
 * it, not from the shown volume, which a status push of an earlier step may have set back meanwhile.
 */
const volumeTargets = new Map<string, number>();

export async function setVolume(botId: string, volume: number) {
  const target = Math.round(Math.min(100, Math.max(0, volume)));
  volumeTargets.set(botId, target);
  setLocalVolume(botId, target);
  const answer = await call(
    api.POST('/api/player/{botId}/volume', { ...bot(botId), body: { volume: target } }),
  );
  if (volumeTargets.get(botId) === target) volumeTargets.delete(botId);
  return report(answer, `volume:${botId}`);
}

export const stepVolume = (botId: string, shownVolume: number, step: number) =>
  setVolume(botId, (volumeTargets.get(botId) ?? shownVolume) + step);

export const setMode = async (botId: string, mode: PlayMode) =>
  report(
    await call(api.POST('/api/player/{botId}/mode', { ...bot(botId), body: { mode } })),
    `mode:${botId}`,
  );

/** What the bot does when its queue runs out in order. */
export const setAutoplay = async (botId: string, mode: Schemas['AutoplayMode']) =>
  report(
    await call(api.POST('/api/player/{botId}/autoplay', { ...bot(botId), body: { mode } })),
    `autoplay:${botId}`,
  );

/** The seconds the next song starts under the end of the one playing (0: joined without a gap). */
export const setCrossfade = async (botId: string, seconds: number) =>
  report(
    await call(api.POST('/api/player/{botId}/crossfade', { ...bot(botId), body: { seconds } })),
    `crossfade:${botId}`,
  );

/** The bot's even loudness: on or off, and its target (the fields given). */
export const setLoudness = async (botId: string, change: Schemas['LoudnessChange']) =>
  report(
    await call(api.POST('/api/player/{botId}/loudness', { ...bot(botId), body: change })),
    `loudness:${botId}`,
  );

export async function seek(botId: string, position: number): Promise<void> {
  setElapsed(botId, position);
  report(
    await call(api.POST('/api/player/{botId}/seek', { ...bot(botId), body: { position } })),
    `seek:${botId}`,
  );
}

export const playAt = async (botId: string, index: number) =>
  report(await call(api.POST('/api/player/{botId}/play-at', { ...bot(botId), body: { index } })));

export const removeAt = async (botId: string, index: number) =>
  report(await call(api.DELETE('/api/player/{botId}/queue/{index}', { params: { path: { botId, index } } })));

export const move = async (botId: string, from: number, to: number) =>
  report(await call(api.POST('/api/player/{botId}/move', { ...bot(botId), body: { from, to } })));

/** The song-object family: what each button does with a search result. */
export const SONG_ACTIONS = {
  play: '/api/player/{botId}/play-song',
  playNext: '/api/player/{botId}/play-next-song',
  add: '/api/player/{botId}/add-song',
} as const;
export type SongAction = keyof typeof SONG_ACTIONS;

export const canSong = (botId: string, action: SongAction) => can('POST', SONG_ACTIONS[action], botId);

export const playSong = async (botId: string, action: SongAction, song: Song) =>
  reportReplacing(botId, await call(api.POST(SONG_ACTIONS[action], { ...bot(botId), body: { song } })));

/** Replaces the queue with a playlist, or appends it (`append`). */
export async function playPlaylist(
  botId: string,
  playlistId: string,
  platform: Song['platform'],
  append = false,
) {
  const path = append ? '/api/player/{botId}/playlist' : '/api/player/{botId}/play-playlist';
  return reportReplacing(
    botId,
    await call(api.POST(path, { ...bot(botId), body: { playlistId, platform } })),
  );
}

export const playAlbum = async (botId: string, album: { id: string; platform: Song['platform'] }) =>
  reportReplacing(
    botId,
    await call(
      api.POST('/api/player/{botId}/play-album', {
        ...bot(botId),
        body: { albumId: album.id, platform: album.platform },
      }),
    ),
  );

/** Space, n and the arrow keys drive the current bot unless focus is in a text field. */
export function shortcutTarget(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  if (!target) return true;
  if (target.isContentEditable) return false;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return false;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    return type === 'checkbox' || type === 'radio' || type === 'button';
  }
  // Space on a focused button presses the button: leave it be.
  return !(event.key === ' ' && (tag === 'BUTTON' || target.getAttribute('role') === 'slider'));
}
