/**
 * The sentences of a platform that never answered are recognised by the rule that words them (the web
 * UI tells "cannot reach" from "refused" with it), and a platform's refusals are not taken for them.
 */
import { describe, expect, it } from 'vitest';
import { saysUnreachable, timedOutSentence, unreachableSentence } from './unreachable';

describe('saysUnreachable', () => {
  it('recognises both sentences of a platform that never answered', () => {
    expect(saysUnreachable(unreachableSentence('NetEase Cloud Music', 'fetch failed'))).toBe(true);
    expect(
      saysUnreachable(unreachableSentence('Jellyfin at https://media.example.test', 'ECONNREFUSED')),
    ).toBe(true);
    expect(saysUnreachable(timedOutSentence('QQ Music', 10))).toBe(true);
  });

  it('does not take a refusal for one', () => {
    for (const refusal of [
      'NetEase Cloud Music answered HTTP 503',
      'the daily recommendation needs a NetEase Cloud Music login; log in first',
      'QQ Music is limiting requests (HTTP 429); try again in a while',
      'Bilibili answered with something that is not JSON (text/html)',
      // A reason that only mentions the words is not the sentence.
      'the song could not be reached (region locked) because of its licence; try another',
    ])
      expect(saysUnreachable(refusal), refusal).toBe(false);
  });
});
