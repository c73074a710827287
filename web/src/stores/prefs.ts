/** Choices kept in this browser: the colour theme and the bot the player and music pages act on. */
import { reactive, watch } from 'vue';

export type Theme = 'dark' | 'light';
const THEME_KEY = 'tsmb.theme';
const BOT_KEY = 'tsmb.bot';

const storedTheme = localStorage.getItem(THEME_KEY);
export const prefs = reactive({
  theme: (storedTheme === 'light' || storedTheme === 'dark'
    ? storedTheme
    : matchMedia('(prefers-color-scheme: light)').matches
      ? 'light'
      : 'dark') as Theme,
  botId: localStorage.getItem(BOT_KEY) ?? '',
});

watch(
  () => prefs.theme,
  (theme) => {
    document.documentElement.dataset.theme = theme;
    localStorage.setItem(THEME_KEY, theme);
  },
  { immediate: true },
);
watch(
  () => prefs.botId,
  (botId) => localStorage.setItem(BOT_KEY, botId),
);
