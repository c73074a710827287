import { describe, expect, it } from 'vitest';
import { NICKNAME_MAX } from '../../../shared/domain/bot-rules';
import { nicknameForAttempt } from './nickname-attempts';

describe('nicknameForAttempt', () => {
  it('keeps the configured nickname first, then numbers it from 2 apart from look-alikes', () => {
    expect(nicknameForAttempt('MusicBot', 0)).toBe('MusicBot');
    expect(nicknameForAttempt('MusicBot', 1)).toBe('MusicBot (2)');
    expect(nicknameForAttempt('MusicBot2', 1)).toBe('MusicBot2 (2)');
    expect(nicknameForAttempt('MusicBot', 9)).toBe('MusicBot (10)');
  });

  it("cuts a long nickname so the suffix fits TeamSpeak's 30 characters", () => {
    const long = 'A very long nickname of thirty';
    expect([...long]).toHaveLength(NICKNAME_MAX);
    const suffixed = nicknameForAttempt(long, 1);
    expect(suffixed).toBe('A very long nickname of th (2)');
    expect([...suffixed]).toHaveLength(NICKNAME_MAX);
    expect([...nicknameForAttempt('音乐机器人'.repeat(6), 2)]).toHaveLength(NICKNAME_MAX);
  });
});
