/**
 * Every sentence the server says to a person (receipts, errors, chat replies), as a stable `code` with
 * `params`, and its text per locale. The API answers `{message | error, code, params}` rendered in the
 * caller's language (Accept-Language); chat replies speak LOCALE; the browser UI renders the same codes
 * from this same catalog, so a text exists once and the page and the API can never word it apart.
 *
 * A new sentence gets its code by adding one key to `en` with `{name}` placeholders, the same key to
 * `zh` (a missing key is a type error; tests/i18n/phrases.test.ts checks the placeholders match) and
 * a builder of that name to `say` (also a type error when missing), which is what callers use.
 *
 * Pure data and functions: the web bundle imports it (no Node modules).
 */
import type { Capability, PlayMode } from '../domain/constants';
import { PLATFORMS, type Platform, platformFacts } from '../domain/platforms';

const en = {
  // Player receipts (also the chat replies of the matching commands).
  notConnected: 'The bot is not connected to the voice server.',
  nowPlaying: 'Now playing: {song}',
  playingNext: 'Playing next: {song}',
  added: 'Added to the queue (#{position}): {song}',
  loaded: 'Loaded {count} songs from {label}',
  loadedOf: 'Loaded {count} of {total} songs from {label}',
  nothingPlayable: 'Nothing in {label} could be played; the queue is unchanged.',
  emptyList: '{label} has no songs; the queue is unchanged.',
  personalFmLabel: 'personal FM',
  playlistLabel: 'playlist {id}',
  albumLabel: 'album {id}',
  paused: 'Paused.',
  resumed: 'Resumed.',
  nothingToResume: 'Nothing is paused.',
  nothingPlaying: 'Nothing is playing.',
  liveCannotSeek: 'This is a live stream: it has no position to seek to.',
  stopped: 'Stopped.',
  skipped: 'Skipped to: {song}',
  endOfQueue: 'End of the queue.',
  skipVotes: 'Skip: {votes} of {needed} votes',
  skipVotesPassed: 'Skip: {votes} of {needed} votes.',
  skipVoteRepeated: 'You have already voted. Skip: {votes} of {needed} votes',
  skipVoteNotInChannel: "Only people in the bot's channel can vote to skip.",
  startOfQueue: 'Already at the first song.',
  cleared: 'Queue cleared.',
  queueRestored: 'The previous queue is back ({count} songs).',
  nothingToUndo: 'Nothing to undo: the queue has changed since.',
  removed: 'Removed: {song}',
  moved: 'Moved to #{position}: {song}',
  volume: 'Volume set to {volume}%.',
  loudnessOn: 'Even loudness is on: every song plays at {target} LUFS.',
  loudnessOff: 'Even loudness is off: songs play as loud as they were made.',
  autoplayOn: 'Autoplay is on: when the queue runs out, songs like the last one follow.',
  autoplayOff: 'Autoplay is off: the bot stops when the queue runs out.',
  autoplayNothing: 'Autoplay found nothing new like the last song, so the music stops here.',
  crossfadeOn: 'Crossfade is {seconds} s: the next song starts under the end of the one playing.',
  crossfadeOff: 'Crossfade is off: each song follows the last without a gap.',
  mode: 'Play mode: {mode}.',
  seeked: 'Jumped to {time}.',
  indexOutOfRange: 'There is no such song in the queue (it has {size}).',
  started: 'Connected.',
  // joined channel
  channelMissing: 'Channel {requested} does not exist; joined {joined}.',
  // the configured nickname was taken on the server (daemon/bots/connection/nickname-attempts.ts)
  nicknameTaken: 'Nickname {requested} is already in use on the server; connected as {used}.',
  // The voice server's refusals of a bot's connection (its TS3 error ids, daemon/bots/connection/start-failure.ts);
  // `startFailed` is any other failure, `detail` what the client or server said, in English.
  startFailed: 'Could not connect: {detail}',
  startWrongServerPassword:
    "Could not connect: the voice server's password is wrong; enter it in the bot's connection settings.",
  startWrongChannelPassword:
    "Could not connect: the channel's password is wrong; enter it in the bot's connection settings.",
  startBanned: 'Could not connect: the voice server has banned this bot.',
  startServerFull: 'Could not connect: the voice server is full.',
  startNicknameInUse:
    'Could not connect: the nickname is already in use on the voice server; choose another.',
  startClientOutdated:
    'Could not connect: the voice server does not accept the client version this bot reports.',
  startSecurityLevel:
    "Could not connect: the voice server asks for a higher identity security level than this bot's.",
  startTooManyClones:
    'Could not connect: the voice server allows no more connections from this address or identity.',
  startNotPermitted: 'Could not connect: the voice server does not permit this bot to join.',
  startTimedOut: 'Could not connect: the voice server did not complete the handshake within {seconds} s.',
  startUnreachable:
    "Could not connect: nothing answers at {address}; check the voice server's address and port.",
  alreadyConnected: 'Already connected.',
  disconnected: 'Disconnected.',
  // Why a song could not play. `playbackFailed` is a source's own sentence (`detail`, English); the
  // others are the decoder's failures by kind (daemon/audio/decode/decode-problem.ts), and a platform's refusal
  // of a common kind follows `playbackRefused` as its own phrase.
  playbackFailed: 'Could not play {song}: {detail}',
  playbackRefused: 'Could not play {song}.',
  playbackDecoderMissing:
    'Could not play {song}: the audio decoder (ffmpeg) cannot be started on this server.',
  playbackSourceRefused: 'Could not play {song}: the server it streams from refused access.',
  playbackSourceNotFound: 'Could not play {song}: its file or stream no longer exists.',
  playbackSourceUnreachable: 'Could not play {song}: the server it streams from cannot be reached.',
  playbackFormatUnsupported: 'Could not play {song}: its file is not audio in a format that can be played.',
  playbackDecodeFailed: 'Could not play {song}: its audio could not be decoded.',
  playbackStopped: 'Playback stopped: the audio decoder (ffmpeg) failed to start several times in a row.',
  streamStalled: 'The stream of {song} sent nothing for {seconds} s; it was skipped.',
  requestedBy: 'Requested by {requester}',
  noResults: 'No results for "{query}".',
  sourceNotEnabled: 'This source is not enabled: {platform}.',
  queueSaved: 'Saved {count} songs as "{name}".',
  savedQueueLoaded: 'Loaded {count} songs from "{name}".',
  noSavedQueue: 'There is no saved queue called "{name}".',
  noSavedQueues: 'There are no saved queues.',
  requestFailed: 'The request failed.',
  /** A receipt from a daemon older than phrases: its text in its LOCALE is all there is. */
  said: '{detail}',
  // Chat only.
  chatUnknownCommand: 'Unknown command {prefix}{name}. Try {prefix}help.',
  chatUsage: 'Usage: {usage}',
  chatAdminOnly: 'Only members of the admin groups may do that.',
  chatQueueEmpty: 'The queue is empty.',
  chatQueueMore: '… and {count} more',
  chatNowPlaying: 'Now playing: {song} [{elapsed}/{duration}]',
  chatVolumeIs: 'Volume is {volume}%.',
  chatModeIs: 'Play mode is {mode}.',
  chatLoudnessOff: 'Even loudness is off.',
  chatLoudnessOn: 'Even loudness is on at {target} LUFS.',
  chatLoudnessPlatform:
    "Even loudness is on at {target} LUFS: this song gets {gain} dB, by the platform's figure.",
  chatLoudnessTags: 'Even loudness is on at {target} LUFS: this song gets {gain} dB, by its ReplayGain tags.',
  chatLoudnessMeasured: 'Even loudness is on at {target} LUFS: this song gets {gain} dB, as measured.',
  chatNoLyrics: 'There are no lyrics for {song}.',
  chatNothingToUndo: 'There is nothing to undo.',
  chatPlatformUnreachable: 'This server cannot reach {platform} right now; try again later.',
  chatWhere: 'I am in {channel}.',
  chatCame: 'I am here now, in {channel}.',
  chatAlreadyThere: 'I am already in {channel}.',
  chatCannotMove: 'I could not move to {channel}: {detail}',
  chatHelp: 'Commands:\n{lines}',

  // Errors a request can meet anywhere. The generic one per status carries the sentence written where
  // it was thrown (`detail`, English); other languages say what the status means instead.
  badRequest: '{detail}',
  unauthorized: '{detail}',
  forbidden: '{detail}',
  notFound: '{detail}',
  conflict: '{detail}',
  payloadTooLarge: '{detail}',
  unsupportedMediaType: '{detail}',
  tooManyRequests: '{detail}',
  internalError: '{detail}',
  notImplemented: '{detail}',
  badGateway: '{detail}',
  serviceUnavailable: '{detail}',
  // A platform's refusal of a common kind (shared/sources/http/refusals.ts); `detail` is its own words.
  platformLoginNeeded:
    '{platform} needs a logged-in account for this; an admin can log in under Settings, Music platforms.',
  platformLoginExpired:
    'The login to {platform} has expired; an admin can log in again under Settings, Music platforms.',
  platformPaidOnly: '{platform} plays this only for VIP or paying accounts.',
  platformRegionBlocked: '{platform} does not offer this in the region of this server.',
  platformNotFound: '{platform} does not have this, or no longer has it.',
  platformRateLimited: '{platform} is limiting how often this server asks; try again in a minute.',
  platformCopyright: '{platform} does not offer this, for copyright reasons.',
  platformTokenRefused:
    '{platform} did not accept the login the bot gave its player (librespot): a token of your own Spotify app may not be allowed to play. The other way is librespot’s own login: an admin can start it under Settings, Music platforms, Spotify (“Log in with librespot”), which shows an address to open and sign in at.',
  insufficientStorage: '{detail}',
  // Validation: `field` is the request field's path, `detail` the schema's own English sentence.
  fieldInvalid: '{field}: {detail}',
  fieldMissing: '{field}: {detail}',
  fieldTooSmall: '{field}: {detail}',
  fieldTooBig: '{field}: {detail}',
  fieldsUnknown: '{field}: unknown field(s) {fields}',
  fieldIllFormed: '{field}: must not contain NUL characters or unpaired surrogates',
  bodyNotJson: 'request body is not valid JSON',
  bodyNotJsonType: 'request body must be JSON (Content-Type: application/json)',
  noRoute: 'no route for {method} {path}',
  // Access.
  invalidApiKey: 'invalid api key',
  notSignedIn: 'authentication required',
  wrongCredentials: 'wrong username or password',
  apiKeysNotHere: 'API keys cannot be used here; use a browser session',
  notForGuests: 'not available to guests',
  guestsMayNot: 'guests may not do this',
  adminOnly: 'admin only',
  missingCapability: 'missing capability {capability}',
  noBotAccess: 'no access to this bot',
  crossSite: 'cross-site request refused',
  guestModeDisabled: 'guest mode is disabled',
  savedQueuesDisabled: 'saved queues are disabled',
  localAudioDisabled: 'local audio is disabled',
  // Things that are not there.
  botNotFound: 'bot not found',
  songNotFound: 'song not found',
  userNotFound: 'user not found',
  /** `field` names the request field, so a form says it beside that field. */
  usernameTaken: 'This user name is taken; choose another.',
  // The bus between the api and the bots.
  noDaemon: 'no daemon is running this bot right now',
  daemonSlow: 'the bot daemon did not answer in time',
  busDown: 'the message bus is unavailable',
  daemonNotRunning: 'no daemon {daemonId} is running',
  drainAlone: 'daemon {daemonId} is the only one running: no other daemon could take its bots',
  // Uploads.
  uploadTooLarge: 'The file is larger than {megabytes} MB.',
  uploadTypeRefused: 'content type must be audio/*, video/* or application/octet-stream',
  lyricsTooLarge: 'a .lrc file is at most {kilobytes} KB',
  lyricsTypeRefused: 'content type of a .lrc file must be text/* or application/octet-stream',
  uploadNoBody: 'the request has no body',
  uploadInterrupted: 'the upload was interrupted before the whole file arrived',
  uploadNotAudio: 'The file holds no audio that can be played.',
  uploadBadName: '{detail}',
  uploadWrongExtension:
    'The file must end in one of {extensions} (or .lrc, the lyrics of an upload of the same name).',
  // gaps: yt-dlp's state, which stands in for YouTube's login status.
  ytDlpVersion: 'yt-dlp {version}',
  ytDlpNoJsRuntime:
    'yt-dlp {version}, but no JavaScript runtime: many YouTube videos cannot be read (install deno, or name another runtime with "--js-runtimes node" in YTDLP_ARGS)',
  ytDlpNoEjs:
    'yt-dlp {version}, but without its EJS component (the challenge solver scripts): many YouTube videos cannot be read (install the yt-dlp-ejs package, or allow the download with "--remote-components ejs:github" in YTDLP_ARGS)',
  ytDlpNoJsRuntimeNorEjs:
    'yt-dlp {version}, but without a JavaScript runtime and its EJS component (the challenge solver scripts): many YouTube videos cannot be read (install deno and the yt-dlp-ejs package)',
  ytDlpMissing: 'yt-dlp is not installed (no yt-dlp on PATH; install it or set YTDLP_PATH)',
  ytDlpMissingAt: 'yt-dlp is not installed (nothing at {path}; fix YTDLP_PATH)',
  /** Why yt-dlp cannot run (it is not executable, it prints no version…), in English. */
  ytDlpUnusable: '{detail}',
  /** A pasted cookie the platform did not take (`detail`, English, says why); `field` is the cookie's. */
  cookieRefused: 'Not logged in: {detail}.',
  jellyfinNotConfigured: 'Jellyfin is not configured',
  jellyfinWrongPassword: 'Jellyfin refused the login: wrong username or password',
  jellyfinInvalidApiKey: 'Jellyfin refused the API key: it is not valid (revoked or mistyped)',
  librespotLoginNone: 'No librespot login is under way (each lasts ten minutes); start it again.',
  librespotLoginBadAddress:
    'Paste the whole address your browser ended on after signing in (it starts with http://127.0.0.1:).',
  librespotLoginOtherAttempt:
    'This address belongs to another login attempt; sign in at the address this attempt showed and paste where it ends.',
  librespotLoginDenied: 'Spotify did not grant the login ({detail}).',
  librespotLoginFailed: 'librespot could not finish the login: {detail}',
} as const;

export type PhraseCode = keyof typeof en;
export type PhraseParams = Record<string, string | number>;
/** One sentence as data: what the API sends beside its text, and what the UI renders. */
export interface Phrase {
  code: PhraseCode;
  params: PhraseParams;
}

const zh: Record<PhraseCode, string> = {
  notConnected: '机器人未连接到语音服务器。',
  nowPlaying: '正在播放：{song}',
  playingNext: '下一首：{song}',
  added: '已加入队列（第 {position} 首）：{song}',
  loaded: '已从 {label} 载入 {count} 首歌曲',
  loadedOf: '已从 {label} 载入 {count}/{total} 首歌曲',
  nothingPlayable: '{label} 中没有可播放的歌曲，队列未改变。',
  emptyList: '{label} 没有歌曲，队列未改变。',
  personalFmLabel: '私人 FM',
  playlistLabel: '歌单 {id}',
  albumLabel: '专辑 {id}',
  paused: '已暂停。',
  resumed: '继续播放。',
  nothingToResume: '没有暂停的歌曲。',
  nothingPlaying: '当前没有播放。',
  liveCannotSeek: '这是直播流，无法跳转进度。',
  stopped: '已停止。',
  skipped: '切换到：{song}',
  endOfQueue: '已到队列末尾。',
  skipVotes: '跳过投票：{votes}/{needed} 票',
  skipVotesPassed: '跳过投票：{votes}/{needed} 票。',
  skipVoteRepeated: '你已经投过票了。跳过投票：{votes}/{needed} 票',
  skipVoteNotInChannel: '只有机器人所在频道里的人可以投票跳过。',
  startOfQueue: '已是第一首。',
  cleared: '队列已清空。',
  queueRestored: '已恢复之前的队列（{count} 首）。',
  nothingToUndo: '无法撤销：队列在那之后已有变动。',
  removed: '已移除：{song}',
  moved: '已移动到第 {position} 首：{song}',
  volume: '音量已设为 {volume}%。',
  loudnessOn: '响度均衡已开启：每首歌都以 {target} LUFS 播放。',
  loudnessOff: '响度均衡已关闭：歌曲按原有响度播放。',
  autoplayOn: '自动续播已开启：队列播完后，会接着播放与上一首相似的歌曲。',
  autoplayOff: '自动续播已关闭：队列播完后机器人停止播放。',
  autoplayNothing: '自动续播没有找到与上一首相似的新歌，播放到此为止。',
  crossfadeOn: '淡入淡出为 {seconds} 秒：下一首会在当前歌曲结尾时渐入。',
  crossfadeOff: '淡入淡出已关闭：歌曲之间无缝衔接。',
  mode: '播放模式：{mode}。',
  seeked: '已跳转到 {time}。',
  indexOutOfRange: '队列中没有这首歌（共 {size} 首）。',
  started: '已连接。',
  // joined channel
  channelMissing: '频道 {requested} 不存在，已进入 {joined}。',
  nicknameTaken: '昵称 {requested} 在服务器上已被使用，已改用 {used} 连接。',
  startFailed: '无法连接到语音服务器。',
  startWrongServerPassword: '无法连接：语音服务器密码错误，请在机器人的连接设置中填写正确的密码。',
  startWrongChannelPassword: '无法连接：频道密码错误，请在机器人的连接设置中填写正确的密码。',
  startBanned: '无法连接：语音服务器封禁了这个机器人。',
  startServerFull: '无法连接：语音服务器已满。',
  startNicknameInUse: '无法连接：这个昵称在语音服务器上已被使用，请换一个。',
  startClientOutdated: '无法连接：语音服务器不接受这个机器人报告的客户端版本。',
  startSecurityLevel: '无法连接：语音服务器要求的身份安全等级高于这个机器人的。',
  startTooManyClones: '无法连接：语音服务器不再接受来自这个地址或身份的更多连接。',
  startNotPermitted: '无法连接：语音服务器不允许这个机器人加入。',
  startTimedOut: '无法连接：语音服务器未在 {seconds} 秒内完成握手。',
  startUnreachable: '无法连接：{address} 没有响应，请检查语音服务器的地址和端口。',
  alreadyConnected: '已经连接。',
  disconnected: '已断开连接。',
  playbackFailed: '无法播放 {song}。',
  playbackRefused: '无法播放 {song}。',
  playbackDecoderMissing: '无法播放 {song}：本服务器无法启动音频解码器（ffmpeg）。',
  playbackSourceRefused: '无法播放 {song}：音频来源的服务器拒绝了访问。',
  playbackSourceNotFound: '无法播放 {song}：它的文件或音频流已不存在。',
  playbackSourceUnreachable: '无法播放 {song}：无法连接音频来源的服务器。',
  playbackFormatUnsupported: '无法播放 {song}：它的文件不是可以播放的音频格式。',
  playbackDecodeFailed: '无法播放 {song}：它的音频无法解码。',
  playbackStopped: '播放已停止：音频解码器（ffmpeg）连续多次无法启动。',
  streamStalled: '{song} 的音频流 {seconds} 秒没有传来数据，已跳过。',
  requestedBy: '点歌人：{requester}',
  noResults: '没有找到“{query}”。',
  sourceNotEnabled: '此音源未启用：{platform}。',
  queueSaved: '已将 {count} 首歌曲保存为“{name}”。',
  savedQueueLoaded: '已从“{name}”载入 {count} 首歌曲。',
  noSavedQueue: '没有名为“{name}”的已保存队列。',
  noSavedQueues: '没有已保存的队列。',
  requestFailed: '请求失败。',
  said: '{detail}',
  chatUnknownCommand: '未知命令 {prefix}{name}，请试试 {prefix}help。',
  chatUsage: '用法：{usage}',
  chatAdminOnly: '只有管理员组的成员可以这样做。',
  chatQueueEmpty: '队列是空的。',
  chatQueueMore: '……还有 {count} 首',
  chatNowPlaying: '正在播放：{song} [{elapsed}/{duration}]',
  chatVolumeIs: '当前音量 {volume}%。',
  chatModeIs: '当前播放模式：{mode}。',
  chatLoudnessOff: '响度均衡已关闭。',
  chatLoudnessOn: '响度均衡已开启，目标 {target} LUFS。',
  chatLoudnessPlatform: '响度均衡已开启，目标 {target} LUFS：这首歌按平台提供的响度调整 {gain} dB。',
  chatLoudnessTags: '响度均衡已开启，目标 {target} LUFS：这首歌按其 ReplayGain 标签调整 {gain} dB。',
  chatLoudnessMeasured: '响度均衡已开启，目标 {target} LUFS：这首歌按实测响度调整 {gain} dB。',
  chatNoLyrics: '{song} 没有歌词。',
  chatNothingToUndo: '没有可以撤销的操作。',
  chatPlatformUnreachable: '本服务器现在连不上{platform}，请稍后再试。',
  chatWhere: '我在频道“{channel}”。',
  chatCame: '我来了，现在在频道“{channel}”。',
  chatAlreadyThere: '我已经在频道“{channel}”了。',
  chatCannotMove: '服务器没有让我进入频道“{channel}”（也许需要频道密码或权限）。',
  chatHelp: '命令：\n{lines}',

  badRequest: '请求有误。',
  unauthorized: '请先登录。',
  forbidden: '没有权限这样做。',
  notFound: '找不到要找的内容。',
  conflict: '与现有内容冲突。',
  payloadTooLarge: '请求太大。',
  unsupportedMediaType: '不支持这种内容类型。',
  tooManyRequests: '尝试次数太多，请稍后再试。',
  internalError: '服务器出错了，请稍后再试。',
  notImplemented: '这个音源不支持此功能。',
  badGateway: '无法连接音乐平台，或平台拒绝了请求。',
  serviceUnavailable: '服务暂时不可用，请稍后再试。',
  platformLoginNeeded: '{platform}需要登录账号才能这样做；管理员可在“设置 → 音乐平台”中登录。',
  platformLoginExpired: '{platform}的登录已过期；管理员可在“设置 → 音乐平台”中重新登录。',
  platformPaidOnly: '{platform}只允许 VIP 或付费账号播放这项内容。',
  platformRegionBlocked: '{platform}在本服务器所在的地区不提供这项内容。',
  platformNotFound: '{platform}上没有这项内容，或已被删除。',
  platformRateLimited: '{platform}正在限制本服务器的请求频率，请一分钟后再试。',
  platformCopyright: '{platform}因版权原因不提供这项内容。',
  platformTokenRefused:
    '{platform}不接受机器人交给播放器（librespot）的登录：用你自己的 Spotify 应用取得的令牌可能不允许播放。另一种方式是 librespot 自己的登录：管理员可在“设置 → 音乐平台 → Spotify”中点“用 librespot 登录”，打开给出的地址并登录即可。',
  insufficientStorage: '服务器存储空间已满，没有做任何更改。',
  fieldInvalid: '{field} 的值无效。',
  fieldMissing: '缺少 {field}。',
  fieldTooSmall: '{field} 太小或太短。',
  fieldTooBig: '{field} 太大或太长。',
  fieldsUnknown: '{field} 中有不认识的字段：{fields}',
  fieldIllFormed: '{field} 不能包含 NUL 字符或不成对的代理字符。',
  bodyNotJson: '请求内容不是有效的 JSON。',
  bodyNotJsonType: '请求内容必须是 JSON（Content-Type: application/json）。',
  noRoute: '没有 {method} {path} 这个接口。',
  invalidApiKey: 'API 密钥无效。',
  notSignedIn: '请先登录。',
  wrongCredentials: '用户名或密码错误。',
  apiKeysNotHere: '这里不能使用 API 密钥，请在浏览器中登录。',
  notForGuests: '访客不能使用此功能。',
  guestsMayNot: '访客不能这样做。',
  adminOnly: '只有管理员可以这样做。',
  missingCapability: '你没有“{capability}”的权限，管理员可以授予。',
  noBotAccess: '你没有这个机器人的权限。',
  crossSite: '已拒绝跨站请求。',
  guestModeDisabled: '访客模式已关闭。',
  savedQueuesDisabled: '保存队列功能已关闭。',
  localAudioDisabled: '本地音频已关闭。',
  botNotFound: '找不到这个机器人。',
  songNotFound: '找不到这首歌。',
  userNotFound: '找不到这个用户。',
  usernameTaken: '这个用户名已被占用，请换一个。',
  noDaemon: '现在没有守护进程在运行这个机器人。',
  daemonSlow: '机器人守护进程没有及时回应。',
  busDown: '消息总线不可用。',
  daemonNotRunning: '没有正在运行的守护进程 {daemonId}。',
  drainAlone: '守护进程 {daemonId} 是唯一在运行的，没有别的守护进程能接手它的机器人。',
  uploadTooLarge: '文件超过 {megabytes} MB。',
  uploadTypeRefused: '文件类型必须是音频、视频或 application/octet-stream。',
  lyricsTooLarge: '.lrc 文件最大 {kilobytes} KB。',
  lyricsTypeRefused: '.lrc 文件的类型必须是文本或 application/octet-stream。',
  uploadNoBody: '请求中没有文件。',
  uploadInterrupted: '上传在文件传完之前中断了。',
  uploadNotAudio: '这个文件不是可以播放的音频。',
  uploadBadName: '文件名无效，或不是支持的文件类型。',
  uploadWrongExtension: '只能上传以 {extensions} 结尾的文件（或 .lrc，同名上传歌曲的歌词）。',
  // gaps
  ytDlpVersion: 'yt-dlp {version}',
  ytDlpNoJsRuntime:
    'yt-dlp {version}，但没有 JavaScript 运行时：很多 YouTube 视频无法读取（请安装 deno，或在 YTDLP_ARGS 中用 "--js-runtimes node" 指定其他运行时）',
  ytDlpNoEjs:
    'yt-dlp {version}，但缺少它的 EJS 组件（验证求解脚本）：很多 YouTube 视频无法读取（请安装 yt-dlp-ejs 包，或在 YTDLP_ARGS 中加入 "--remote-components ejs:github" 允许下载）',
  ytDlpNoJsRuntimeNorEjs:
    'yt-dlp {version}，但既没有 JavaScript 运行时，也缺少 EJS 组件（验证求解脚本）：很多 YouTube 视频无法读取（请安装 deno 和 yt-dlp-ejs 包）',
  ytDlpMissing: '未安装 yt-dlp（PATH 中找不到 yt-dlp；请安装它或设置 YTDLP_PATH）',
  ytDlpMissingAt: '未安装 yt-dlp（{path} 处没有它；请修正 YTDLP_PATH）',
  ytDlpUnusable: 'yt-dlp 无法在本服务器运行（它不能执行，或没有报告版本）。',
  cookieRefused: '未能登录：这个 Cookie 不属于已登录的账号，或者登录已经过期。',
  jellyfinNotConfigured: '尚未配置 Jellyfin',
  jellyfinWrongPassword: 'Jellyfin 拒绝了登录：用户名或密码错误',
  jellyfinInvalidApiKey: 'Jellyfin 拒绝了 API 密钥：它无效（已被撤销或输错）',
  librespotLoginNone: '当前没有进行中的 librespot 登录（每次有效十分钟）；请重新开始。',
  librespotLoginBadAddress: '请粘贴登录后浏览器停留页面的完整地址（以 http://127.0.0.1: 开头）。',
  librespotLoginOtherAttempt:
    '这个地址属于另一次登录尝试；请打开本次给出的地址登录，再粘贴最后停留页面的地址。',
  librespotLoginDenied: 'Spotify 没有允许这次登录。',
  librespotLoginFailed: 'librespot 未能完成登录；原因见服务器日志，可重新开始登录。',
};

const CATALOGS = { en, zh } as const satisfies Record<string, Record<PhraseCode, string>>;
export type Locale = keyof typeof CATALOGS;
export const LOCALES = Object.keys(CATALOGS) as [Locale, ...Locale[]];
export const isLocale = (value: string): value is Locale => Object.hasOwn(CATALOGS, value);
export const isPhraseCode = (value: string): value is PhraseCode => Object.hasOwn(en, value);
export const PHRASE_CODES = Object.keys(en) as [PhraseCode, ...PhraseCode[]];

/** The platforms' names per locale: English is the registry's, the others are worded here. */
const PLATFORM_NAMES: Record<Locale, Record<Platform, string>> = {
  en: Object.fromEntries(PLATFORMS.map((p) => [p, platformFacts(p).name])) as Record<Platform, string>,
  zh: {
    music_a: '网易云音乐',
    music_b: 'QQ 音乐',
    music_c: '酷狗音乐',
    video_a: '哔哩哔哩',
    video_b: 'YouTube',
    library_a: 'Jellyfin',
    streaming_a: 'Spotify',
    local: '上传的文件',
    stream: '网络电台与音频链接',
  },
};

/** A platform's name in `locale`: what phrases call it and what the browser UI labels it with. */
export const platformName = (platform: Platform, locale: Locale): string => PLATFORM_NAMES[locale][platform];

/** The play modes' names per locale: the receipts and the player's mode menu say the same words. */
const PLAY_MODE_NAMES: Record<Locale, Record<PlayMode, string>> = {
  en: { seq: 'In order', loop: 'Repeat queue', random: 'Shuffle', rloop: 'Shuffle forever' },
  zh: { seq: '顺序播放', loop: '列表循环', random: '随机播放', rloop: '随机循环' },
};

/** A play mode's name in `locale`, as the mode menu lists it and receipts name it. */
export const playModeName = (mode: PlayMode, locale: Locale): string => PLAY_MODE_NAMES[locale][mode];

/** Param values that are themselves words: rendered through the locale's names for them. */
const VALUE_NAMES: Record<Locale, Record<string, Record<string, string>>> = {
  en: {
    mode: PLAY_MODE_NAMES.en,
    platform: PLATFORM_NAMES.en,
  },
  zh: {
    mode: PLAY_MODE_NAMES.zh,
    requester: { Guest: '访客' },
    /** The capability names an admin grants (shared/domain/constants.ts CAPABILITIES), as a person says them. */
    capability: {
      'player.control': '控制播放',
      'player.queue': '编辑队列',
      'bot.manage': '管理机器人和设置',
      'platform.auth': '登录音乐平台',
      quality: '修改音质',
    } satisfies Record<Capability, string>,
    platform: PLATFORM_NAMES.zh,
  },
};

/** A phrase as it travels: its code is checked only when it is rendered. */
export interface PhraseData {
  code: string;
  params?: PhraseParams;
}

/** The text of a phrase in `locale`; an unknown code (a newer server) falls back to `fallback`. */
export function renderPhrase(
  phrase: { code: string; params?: PhraseParams },
  locale: Locale,
  fallback = '',
): string {
  if (!isPhraseCode(phrase.code)) return fallback;
  const params = phrase.params ?? {};
  const names = VALUE_NAMES[locale];
  return CATALOGS[locale][phrase.code].replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!(name in params)) return whole;
    const value = String(params[name]);
    return names[name]?.[value] ?? value;
  });
}

/** Several sentences said at once (a failure, then what plays instead), as one text. */
export const renderPhrases = (phrases: readonly PhraseData[], locale: Locale): string =>
  phrases.map((phrase) => renderPhrase(phrase, locale)).join(' ');

interface SongRef {
  name: string;
  artist: string;
}
const songText = (s: SongRef) => (s.artist ? `${s.name} - ${s.artist}` : s.name);

export function formatTime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

const p = (code: PhraseCode, params: PhraseParams = {}): Phrase => ({ code, params });
const detail = (code: PhraseCode) => (text: string) => p(code, { detail: text });
const song = (code: PhraseCode) => (s: SongRef) => p(code, { song: songText(s) });
const field = (code: PhraseCode) => (path: string, text: string) => p(code, { field: path, detail: text });
/** A platform's refusal: the platform's value (worded by VALUE_NAMES), its words as `<platform>: …`. */
const refused = (code: PhraseCode) => (platform: Platform, sentence: string) =>
  p(code, { platform, detail: `${platform}: ${sentence}` });

/** The builders: one per code, taking what the sentence is about. */
export const say = {
  notConnected: () => p('notConnected'),
  nowPlaying: (s: SongRef) => p('nowPlaying', { song: songText(s) }),
  playingNext: (s: SongRef) => p('playingNext', { song: songText(s) }),
  added: (s: SongRef, position: number) => p('added', { song: songText(s), position }),
  loaded: (label: string, count: number) => p('loaded', { label, count }),
  loadedOf: (label: string, count: number, total: number) => p('loadedOf', { label, count, total }),
  nothingPlayable: (label: string) => p('nothingPlayable', { label }),
  emptyList: (label: string) => p('emptyList', { label }),
  personalFmLabel: () => p('personalFmLabel'),
  playlistLabel: (id: string) => p('playlistLabel', { id }),
  albumLabel: (id: string) => p('albumLabel', { id }),
  paused: () => p('paused'),
  resumed: () => p('resumed'),
  nothingToResume: () => p('nothingToResume'),
  nothingPlaying: () => p('nothingPlaying'),
  liveCannotSeek: () => p('liveCannotSeek'),
  stopped: () => p('stopped'),
  skipped: (s: SongRef) => p('skipped', { song: songText(s) }),
  endOfQueue: () => p('endOfQueue'),
  skipVotes: (votes: number, needed: number) => p('skipVotes', { votes, needed }),
  skipVotesPassed: (votes: number, needed: number) => p('skipVotesPassed', { votes, needed }),
  skipVoteRepeated: (votes: number, needed: number) => p('skipVoteRepeated', { votes, needed }),
  skipVoteNotInChannel: () => p('skipVoteNotInChannel'),
  startOfQueue: () => p('startOfQueue'),
  cleared: () => p('cleared'),
  queueRestored: (count: number) => p('queueRestored', { count }),
  nothingToUndo: () => p('nothingToUndo'),
  removed: (s: SongRef) => p('removed', { song: songText(s) }),
  moved: (s: SongRef, position: number) => p('moved', { song: songText(s), position }),
  volume: (volume: number) => p('volume', { volume }),
  loudnessOn: (target: number) => p('loudnessOn', { target }),
  loudnessOff: () => p('loudnessOff'),
  autoplayOn: () => p('autoplayOn'),
  autoplayOff: () => p('autoplayOff'),
  autoplayNothing: () => p('autoplayNothing'),
  crossfadeOn: (seconds: number) => p('crossfadeOn', { seconds }),
  crossfadeOff: () => p('crossfadeOff'),
  mode: (mode: PlayMode) => p('mode', { mode }),
  seeked: (seconds: number) => p('seeked', { time: formatTime(seconds) }),
  indexOutOfRange: (size: number) => p('indexOutOfRange', { size }),
  started: () => p('started'),
  // joined channel
  channelMissing: (requested: string, joined: string) => p('channelMissing', { requested, joined }),
  nicknameTaken: (requested: string, used: string) => p('nicknameTaken', { requested, used }),
  startFailed: detail('startFailed'),
  startWrongServerPassword: () => p('startWrongServerPassword'),
  startWrongChannelPassword: () => p('startWrongChannelPassword'),
  startBanned: () => p('startBanned'),
  startServerFull: () => p('startServerFull'),
  startNicknameInUse: () => p('startNicknameInUse'),
  startClientOutdated: () => p('startClientOutdated'),
  startSecurityLevel: () => p('startSecurityLevel'),
  startTooManyClones: () => p('startTooManyClones'),
  startNotPermitted: () => p('startNotPermitted'),
  startTimedOut: (seconds: number) => p('startTimedOut', { seconds }),
  startUnreachable: (address: string) => p('startUnreachable', { address }),
  alreadyConnected: () => p('alreadyConnected'),
  disconnected: () => p('disconnected'),
  playbackFailed: (s: SongRef, sentence: string) =>
    p('playbackFailed', { song: songText(s), detail: sentence }),
  playbackRefused: song('playbackRefused'),
  playbackDecoderMissing: song('playbackDecoderMissing'),
  playbackSourceRefused: song('playbackSourceRefused'),
  playbackSourceNotFound: song('playbackSourceNotFound'),
  playbackSourceUnreachable: song('playbackSourceUnreachable'),
  playbackFormatUnsupported: song('playbackFormatUnsupported'),
  playbackDecodeFailed: song('playbackDecodeFailed'),
  playbackStopped: () => p('playbackStopped'),
  streamStalled: (s: SongRef, seconds: number) => p('streamStalled', { song: songText(s), seconds }),
  requestedBy: (requester: string) => p('requestedBy', { requester }),
  noResults: (query: string) => p('noResults', { query }),
  sourceNotEnabled: (platform: string) => p('sourceNotEnabled', { platform }),
  queueSaved: (name: string, count: number) => p('queueSaved', { name, count }),
  savedQueueLoaded: (name: string, count: number) => p('savedQueueLoaded', { name, count }),
  noSavedQueue: (name: string) => p('noSavedQueue', { name }),
  noSavedQueues: () => p('noSavedQueues'),
  requestFailed: () => p('requestFailed'),
  said: (text: string) => p('said', { detail: text }),
  chatUnknownCommand: (name: string, prefix: string) => p('chatUnknownCommand', { name, prefix }),
  chatUsage: (usage: string) => p('chatUsage', { usage }),
  chatAdminOnly: () => p('chatAdminOnly'),
  chatQueueEmpty: () => p('chatQueueEmpty'),
  chatQueueMore: (count: number) => p('chatQueueMore', { count }),
  chatNowPlaying: (s: SongRef, elapsed: string, duration: string) =>
    p('chatNowPlaying', { song: songText(s), elapsed, duration }),
  chatVolumeIs: (volume: number) => p('chatVolumeIs', { volume }),
  chatModeIs: (mode: PlayMode) => p('chatModeIs', { mode }),
  chatLoudnessOff: () => p('chatLoudnessOff'),
  chatLoudnessOn: (target: number) => p('chatLoudnessOn', { target }),
  chatLoudnessPlatform: (target: number, gain: string) => p('chatLoudnessPlatform', { target, gain }),
  chatLoudnessTags: (target: number, gain: string) => p('chatLoudnessTags', { target, gain }),
  chatLoudnessMeasured: (target: number, gain: string) => p('chatLoudnessMeasured', { target, gain }),
  chatNoLyrics: (s: SongRef) => p('chatNoLyrics', { song: songText(s) }),
  chatNothingToUndo: () => p('chatNothingToUndo'),
  chatPlatformUnreachable: (platform: Platform) => p('chatPlatformUnreachable', { platform }),
  chatWhere: (channel: string) => p('chatWhere', { channel }),
  chatCame: (channel: string) => p('chatCame', { channel }),
  chatAlreadyThere: (channel: string) => p('chatAlreadyThere', { channel }),
  chatCannotMove: (channel: string, detail: string) => p('chatCannotMove', { channel, detail }),
  chatHelp: (lines: string) => p('chatHelp', { lines }),

  badRequest: detail('badRequest'),
  unauthorized: detail('unauthorized'),
  forbidden: detail('forbidden'),
  notFound: detail('notFound'),
  conflict: detail('conflict'),
  payloadTooLarge: detail('payloadTooLarge'),
  unsupportedMediaType: detail('unsupportedMediaType'),
  tooManyRequests: detail('tooManyRequests'),
  internalError: detail('internalError'),
  notImplemented: detail('notImplemented'),
  badGateway: detail('badGateway'),
  serviceUnavailable: detail('serviceUnavailable'),
  platformLoginNeeded: refused('platformLoginNeeded'),
  platformLoginExpired: refused('platformLoginExpired'),
  platformPaidOnly: refused('platformPaidOnly'),
  platformRegionBlocked: refused('platformRegionBlocked'),
  platformNotFound: refused('platformNotFound'),
  platformRateLimited: refused('platformRateLimited'),
  platformCopyright: refused('platformCopyright'),
  platformTokenRefused: refused('platformTokenRefused'),
  insufficientStorage: detail('insufficientStorage'),
  fieldInvalid: field('fieldInvalid'),
  fieldMissing: field('fieldMissing'),
  fieldTooSmall: field('fieldTooSmall'),
  fieldTooBig: field('fieldTooBig'),
  fieldsUnknown: (path: string, fields: readonly string[]) =>
    p('fieldsUnknown', { field: path, fields: fields.join(', ') }),
  fieldIllFormed: (path: string) => p('fieldIllFormed', { field: path }),
  bodyNotJson: () => p('bodyNotJson'),
  bodyNotJsonType: () => p('bodyNotJsonType'),
  noRoute: (method: string, path: string) => p('noRoute', { method, path }),
  invalidApiKey: () => p('invalidApiKey'),
  notSignedIn: () => p('notSignedIn'),
  wrongCredentials: () => p('wrongCredentials'),
  apiKeysNotHere: () => p('apiKeysNotHere'),
  notForGuests: () => p('notForGuests'),
  guestsMayNot: () => p('guestsMayNot'),
  adminOnly: () => p('adminOnly'),
  missingCapability: (capability: string) => p('missingCapability', { capability }),
  noBotAccess: () => p('noBotAccess'),
  crossSite: () => p('crossSite'),
  guestModeDisabled: () => p('guestModeDisabled'),
  savedQueuesDisabled: () => p('savedQueuesDisabled'),
  localAudioDisabled: () => p('localAudioDisabled'),
  botNotFound: () => p('botNotFound'),
  songNotFound: () => p('songNotFound'),
  userNotFound: () => p('userNotFound'),
  usernameTaken: () => p('usernameTaken', { field: 'username' }),
  noDaemon: () => p('noDaemon'),
  daemonSlow: () => p('daemonSlow'),
  busDown: () => p('busDown'),
  daemonNotRunning: (daemonId: string) => p('daemonNotRunning', { daemonId }),
  drainAlone: (daemonId: string) => p('drainAlone', { daemonId }),
  uploadTooLarge: (megabytes: number) => p('uploadTooLarge', { megabytes }),
  uploadTypeRefused: () => p('uploadTypeRefused'),
  lyricsTooLarge: (kilobytes: number) => p('lyricsTooLarge', { kilobytes }),
  lyricsTypeRefused: () => p('lyricsTypeRefused'),
  uploadNoBody: () => p('uploadNoBody'),
  uploadInterrupted: () => p('uploadInterrupted'),
  uploadNotAudio: () => p('uploadNotAudio'),
  uploadBadName: detail('uploadBadName'),
  uploadWrongExtension: (extensions: readonly string[]) =>
    p('uploadWrongExtension', { extensions: extensions.map((e) => `.${e}`).join(', ') }),
  // gaps
  ytDlpVersion: (version: string) => p('ytDlpVersion', { version }),
  ytDlpNoJsRuntime: (version: string) => p('ytDlpNoJsRuntime', { version }),
  ytDlpNoEjs: (version: string) => p('ytDlpNoEjs', { version }),
  ytDlpNoJsRuntimeNorEjs: (version: string) => p('ytDlpNoJsRuntimeNorEjs', { version }),
  ytDlpMissing: () => p('ytDlpMissing'),
  ytDlpMissingAt: (path: string) => p('ytDlpMissingAt', { path }),
  ytDlpUnusable: detail('ytDlpUnusable'),
  cookieRefused: (platform: Platform, sentence: string) =>
    p('cookieRefused', { field: 'cookie', platform, detail: sentence }),
  jellyfinNotConfigured: () => p('jellyfinNotConfigured'),
  jellyfinWrongPassword: () => p('jellyfinWrongPassword'),
  jellyfinInvalidApiKey: () => p('jellyfinInvalidApiKey'),
  librespotLoginNone: () => p('librespotLoginNone'),
  librespotLoginBadAddress: () => p('librespotLoginBadAddress', { field: 'redirectUrl' }),
  librespotLoginOtherAttempt: () => p('librespotLoginOtherAttempt', { field: 'redirectUrl' }),
  librespotLoginDenied: detail('librespotLoginDenied'),
  librespotLoginFailed: detail('librespotLoginFailed'),
} as const satisfies Record<PhraseCode, (...args: never[]) => Phrase>;

/** The generic phrase of an HTTP error status, for a sentence thrown without a code of its own. */
const STATUS_CODES: Record<number, PhraseCode> = {
  400: 'badRequest',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'notFound',
  409: 'conflict',
  413: 'payloadTooLarge',
  415: 'unsupportedMediaType',
  429: 'tooManyRequests',
  501: 'notImplemented',
  502: 'badGateway',
  503: 'serviceUnavailable',
  507: 'insufficientStorage',
};
export const statusPhrase = (status: number, text: string): Phrase =>
  p(STATUS_CODES[status] ?? (status >= 500 ? 'internalError' : 'badRequest'), { detail: text });
