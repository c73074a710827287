/**
 * Receipt texts: what a REST call returns in `message` and what a chat command replies, from one
 * catalog so both say the same. English by default; LOCALE=zh selects Chinese. Add a locale by adding
 * a table with the same keys (the type makes a missing key a compile error).
 */
import type { PlayMode } from './domain/constants';

interface SongRef {
  name: string;
  artist: string;
}

const song = (s: SongRef) => (s.artist ? `${s.name} - ${s.artist}` : s.name);

const MODE_NAMES_EN: Record<PlayMode, string> = {
  seq: 'sequential',
  loop: 'loop',
  random: 'shuffle',
  rloop: 'shuffle loop',
};
const MODE_NAMES_ZH: Record<PlayMode, string> = {
  seq: '顺序播放',
  loop: '列表循环',
  random: '随机播放',
  rloop: '随机循环',
};

const en = {
  notConnected: () => 'The bot is not connected to the voice server.',
  nowPlaying: (s: SongRef) => `Now playing: ${song(s)}`,
  playingNext: (s: SongRef) => `Playing next: ${song(s)}`,
  added: (s: SongRef, position: number) => `Added to the queue (#${position}): ${song(s)}`,
  loaded: (label: string, count: number) => `Loaded ${count} songs from ${label}`,
  loadedOf: (label: string, count: number, total: number) =>
    `Loaded ${count} of ${total} songs from ${label}`,
  nothingPlayable: (label: string) => `Nothing in ${label} could be played; the queue is unchanged.`,
  emptyList: (label: string) => `${label} has no songs; the queue is unchanged.`,
  personalFmLabel: () => 'personal FM',
  paused: () => 'Paused.',
  resumed: () => 'Resumed.',
  nothingToResume: () => 'Nothing is paused.',
  nothingPlaying: () => 'Nothing is playing.',
  liveCannotSeek: () => 'This is a live stream: it has no position to seek to.',
  stopped: () => 'Stopped.',
  skipped: (s: SongRef) => `Skipped to: ${song(s)}`,
  endOfQueue: () => 'End of the queue.',
  skipVotes: (votes: number, needed: number) => `Skip: ${votes} of ${needed} votes`,
  skipVoteRepeated: (votes: number, needed: number) =>
    `You have already voted. Skip: ${votes} of ${needed} votes`,
  skipVoteNotInChannel: () => "Only people in the bot's channel can vote to skip.",
  startOfQueue: () => 'Already at the first song.',
  cleared: () => 'Queue cleared.',
  removed: (s: SongRef) => `Removed: ${song(s)}`,
  moved: (s: SongRef, position: number) => `Moved to #${position}: ${song(s)}`,
  volume: (volume: number) => `Volume set to ${volume}.`,
  mode: (mode: PlayMode) => `Play mode: ${MODE_NAMES_EN[mode]}.`,
  seeked: (seconds: number) => `Jumped to ${formatTime(seconds)}.`,
  indexOutOfRange: (size: number) => `There is no such song in the queue (it has ${size}).`,
  started: () => 'Connected.',
  startFailed: (reason: string) => `Could not connect: ${reason}`,
  startTimedOut: (seconds: number) =>
    `Could not connect: the voice server did not complete the handshake within ${seconds} s.`,
  alreadyConnected: () => 'Already connected.',
  disconnected: () => 'Disconnected.',
  playbackFailed: (s: SongRef, reason: string) => `Could not play ${song(s)}: ${reason}`,
  playbackStopped: (reason: string) => `Playback stopped: ${reason}`,
  streamStalled: (s: SongRef, seconds: number) =>
    `The stream of ${song(s)} sent nothing for ${seconds} s; it was skipped.`,
  requestedBy: (name: string) => `Requested by ${name}`,
  noResults: (query: string) => `No results for "${query}".`,
  sourceNotEnabled: (platform: string) => `The source ${platform} is not enabled.`,
  chatUnknownCommand: (name: string, prefix: string) =>
    `Unknown command ${prefix}${name}. Try ${prefix}help.`,
  chatUsage: (usage: string) => `Usage: ${usage}`,
  chatAdminOnly: () => 'Only members of the admin groups may do that.',
  chatQueueEmpty: () => 'The queue is empty.',
  chatQueueMore: (count: number) => `… and ${count} more`,
  chatNowPlaying: (s: SongRef, elapsed: string, duration: string) =>
    `Now playing: ${song(s)} [${elapsed}/${duration}]`,
  chatVolumeIs: (volume: number) => `Volume is ${volume}.`,
  chatModeIs: (mode: PlayMode) => `Play mode is ${MODE_NAMES_EN[mode]}.`,
  chatNoLyrics: (s: SongRef) => `There are no lyrics for ${song(s)}.`,
  chatHelp: (lines: string) => `Commands:\n${lines}`,
  queueSaved: (name: string, count: number) => `Saved ${count} songs as "${name}".`,
  savedQueueLoaded: (name: string, count: number) => `Loaded ${count} songs from "${name}".`,
  noSavedQueue: (name: string) => `There is no saved queue called "${name}".`,
  noSavedQueues: () => 'There are no saved queues.',
  requestFailed: () => 'The request failed.',
} as const;

export type Receipts = { [K in keyof typeof en]: (typeof en)[K] };

const zh: Receipts = {
  notConnected: () => '机器人未连接到语音服务器。',
  nowPlaying: (s) => `正在播放：${song(s)}`,
  playingNext: (s) => `下一首：${song(s)}`,
  added: (s, position) => `已加入队列（第 ${position} 首）：${song(s)}`,
  loaded: (label, count) => `已从 ${label} 载入 ${count} 首歌曲`,
  loadedOf: (label, count, total) => `已从 ${label} 载入 ${count}/${total} 首歌曲`,
  nothingPlayable: (label) => `${label} 中没有可播放的歌曲，队列未改变。`,
  emptyList: (label) => `${label} 没有歌曲，队列未改变。`,
  personalFmLabel: () => '私人 FM',
  paused: () => '已暂停。',
  resumed: () => '继续播放。',
  nothingToResume: () => '没有暂停的歌曲。',
  nothingPlaying: () => '当前没有播放。',
  liveCannotSeek: () => '这是直播流，无法跳转进度。',
  stopped: () => '已停止。',
  skipped: (s) => `切换到：${song(s)}`,
  endOfQueue: () => '已到队列末尾。',
  skipVotes: (votes, needed) => `跳过投票：${votes}/${needed} 票`,
  skipVoteRepeated: (votes, needed) => `你已经投过票了。跳过投票：${votes}/${needed} 票`,
  skipVoteNotInChannel: () => '只有机器人所在频道里的人可以投票跳过。',
  startOfQueue: () => '已是第一首。',
  cleared: () => '队列已清空。',
  removed: (s) => `已移除：${song(s)}`,
  moved: (s, position) => `已移动到第 ${position} 首：${song(s)}`,
  volume: (volume) => `音量已设为 ${volume}。`,
  mode: (mode) => `播放模式：${MODE_NAMES_ZH[mode]}。`,
  seeked: (seconds) => `已跳转到 ${formatTime(seconds)}。`,
  indexOutOfRange: (size) => `队列中没有这首歌（共 ${size} 首）。`,
  started: () => '已连接。',
  startFailed: (reason) => `无法连接：${reason}`,
  startTimedOut: (seconds) => `无法连接：语音服务器未在 ${seconds} 秒内完成握手。`,
  alreadyConnected: () => '已经连接。',
  disconnected: () => '已断开连接。',
  playbackFailed: (s, reason) => `无法播放 ${song(s)}：${reason}`,
  playbackStopped: (reason) => `播放已停止：${reason}`,
  streamStalled: (s, seconds) => `${song(s)} 的音频流 ${seconds} 秒没有传来数据，已跳过。`,
  requestedBy: (name) => `点歌人：${name}`,
  noResults: (query) => `没有找到“${query}”。`,
  sourceNotEnabled: (platform) => `音源 ${platform} 未启用。`,
  chatUnknownCommand: (name, prefix) => `未知命令 ${prefix}${name}，请试试 ${prefix}help。`,
  chatUsage: (usage) => `用法：${usage}`,
  chatAdminOnly: () => '只有管理员组的成员可以这样做。',
  chatQueueEmpty: () => '队列是空的。',
  chatQueueMore: (count) => `……还有 ${count} 首`,
  chatNowPlaying: (s, elapsed, duration) => `正在播放：${song(s)} [${elapsed}/${duration}]`,
  chatVolumeIs: (volume) => `当前音量 ${volume}。`,
  chatModeIs: (mode) => `当前播放模式：${MODE_NAMES_ZH[mode]}。`,
  chatNoLyrics: (s) => `${song(s)} 没有歌词。`,
  chatHelp: (lines) => `命令：\n${lines}`,
  queueSaved: (name, count) => `已将 ${count} 首歌曲保存为“${name}”。`,
  savedQueueLoaded: (name, count) => `已从“${name}”载入 ${count} 首歌曲。`,
  noSavedQueue: (name) => `没有名为“${name}”的已保存队列。`,
  noSavedQueues: () => '没有已保存的队列。',
  requestFailed: () => '请求失败。',
};

const CATALOGS = { en, zh } satisfies Record<string, Receipts>;
export type Locale = keyof typeof CATALOGS;
export const LOCALES = Object.keys(CATALOGS) as [Locale, ...Locale[]];

/**
 * The catalog of the configured LOCALE (English until an entry chooses): a live binding, set once by
 * each entry (and on the daemon's thread, from the configuration handed to it) through `useLocale`.
 */
export let receipts: Receipts = en;

export function useLocale(locale: Locale): void {
  receipts = CATALOGS[locale];
}

export function formatTime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}
