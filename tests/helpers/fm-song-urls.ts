/**
 * The song-url answer of NetEase personal-FM tests: every FM song at a loopback tone server, so a bot
 * really plays it (the weapi payload is encrypted, so the ids cannot be read from the request).
 */
export const FM_IDS = [1901371651, 1901371652];

export function fmSongUrls(audioBase: string) {
  return {
    code: 200,
    data: FM_IDS.map((id) => ({
      id,
      url: `${audioBase}tone.mp3?id=${id}`,
      code: 200,
      fee: 8,
      freeTrialInfo: null,
    })),
  };
}
