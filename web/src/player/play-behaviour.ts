/**
 * Whether a single-song Play keeps the queue (`playKeepsQueue`, an admin's setting), so the Play
 * controls can say which they will do. Read once from the settings where the principal may read them;
 * a guest, who may not, gets SPEC's default (the queue is replaced). The Behaviour settings and the
 * setup wizard set it when they save it.
 */
import { reactive } from 'vue';
import { api, call } from '../api/client';
import { t } from '../i18n';
import { can } from '../stores/session';

export const playBehaviour = reactive({ keepsQueue: false });
let asked = false;

export function loadPlayBehaviour(): void {
  if (asked || !can('GET', '/api/bot/settings')) return;
  asked = true;
  void call(api.GET('/api/bot/settings')).then((settings) => {
    if (settings.ok) playBehaviour.keepsQueue = settings.value.playKeepsQueue;
    else asked = false;
  });
}

/** The name of a single song's Play control: what it does to the queue. */
export const singlePlayLabel = (): string => t(playBehaviour.keepsQueue ? 'music.playKeeping' : 'music.play');
