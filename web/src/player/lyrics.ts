/**
 * The current song's lyrics for one bot: loaded when the song changes, parsed from LRC, and the line
 * the bot is at now. Shared by the player's lyrics tab and the full-screen lyrics.
 */
import type { Schemas } from '@api/index';
import { type LyricLine, lineAt, parseLrc } from '@shared/sources/lrc';
import { computed, ref, watch } from 'vue';
import { routeExists } from '../api/access';
import { api, call } from '../api/client';
import { elapsedOf, live } from '../stores/live';

export function useLyrics(bot: () => Schemas['BotStatus']) {
  const available = routeExists('GET', '/api/music/lyrics/{id}');
  const lines = ref<LyricLine[]>([]);
  const state = ref<'loading' | 'ready' | 'none' | 'error'>('none');
  const error = ref('');
  const song = computed(() => bot().currentSong);

  watch(
    () => (song.value ? `${song.value.platform}:${song.value.id}` : ''),
    async () => {
      lines.value = [];
      const current = song.value;
      if (!available || !current) {
        state.value = 'none';
        return;
      }
      state.value = 'loading';
      const result = await call(
        api.GET('/api/music/lyrics/{id}', {
          params: { path: { id: current.id }, query: { platform: current.platform } },
        }),
      );
      if (result.ok) {
        lines.value = parseLrc(result.value.lyrics);
        state.value = lines.value.length > 0 ? 'ready' : 'none';
      } else if (result.status === 404 || result.status === 501) {
        state.value = 'none';
      } else {
        error.value = result.error;
        state.value = 'error';
      }
    },
    { immediate: true },
  );

  const active = computed(() => {
    void live.now;
    return lineAt(lines.value, elapsedOf(bot()));
  });

  return { available, lines, state, error, song, active };
}
