/**
 * The bot the player bar, the player and music pages and the shortcuts act on: the route's (a
 * `/bot/<id>` link or `/player/<id>`), else the one this browser chose last (prefs, kept in
 * localStorage). A browser without a choice gets a playing bot, else the first listed, and that choice
 * is stored at once so a bot added or started later never takes its place. Only a chosen bot that is
 * gone (deleted, or no longer shared) is replaced, and the user is told which bot is shown instead.
 */
import type { Schemas } from '@api/index';
import { computed, watch } from 'vue';
import { useRoute } from 'vue-router';
import { t } from '../i18n';
import { live } from '../stores/live';
import { prefs } from '../stores/prefs';
import { notify } from '../stores/toasts';

/** A playing bot, else the first in the server's order; '' without bots. */
export function fallbackBot(order: readonly string[], bots: Record<string, Schemas['BotStatus']>): string {
  return order.find((id) => bots[id]?.playing && !bots[id]?.paused) ?? order[0] ?? '';
}

export function useCurrentBotId() {
  const route = useRoute();
  return computed(() => {
    const fromRoute = route.params.botId;
    if (typeof fromRoute === 'string' && fromRoute) return fromRoute;
    return prefs.botId && live.bots[prefs.botId] ? prefs.botId : '';
  });
}

/** Keeps the stored choice pointing at a bot that exists; installed once, by the app shell. */
export function keepChosenBot(): void {
  watch(
    () => [live.loaded, live.order.length, prefs.botId] as const,
    () => {
      if (!live.loaded || (prefs.botId && live.bots[prefs.botId])) return;
      const hadChoice = prefs.botId !== '';
      const next = fallbackBot(live.order, live.bots);
      prefs.botId = next;
      if (hadChoice && next) notify(t('player.botGone', { name: live.bots[next]?.name ?? next }));
    },
    { immediate: true },
  );
}
