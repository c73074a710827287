/** The bot the player, the music page and the shortcuts act on: the route's, else the last chosen. */
import { computed } from 'vue';
import { useRoute } from 'vue-router';
import { live } from '../stores/live';
import { prefs } from '../stores/prefs';

export function useCurrentBotId() {
  const route = useRoute();
  return computed(() => {
    const fromRoute = route.params.botId;
    if (typeof fromRoute === 'string' && fromRoute) return fromRoute;
    if (prefs.botId && live.bots[prefs.botId]) return prefs.botId;
    return live.order[0] ?? '';
  });
}
