/**
 * History-mode routes under the base path. `/bot/:botId` locks the UI to one bot (a link to hand out);
 * sign-in, first-run setup and the pages behind them are guarded from the session.
 */
import { createRouter, createWebHistory, type RouteLocationNormalized } from 'vue-router';
import { basePath } from './base';
import { wizardInProgress } from './setup/wizard-marker';
import { refreshSession, session } from './stores/session';
import DashboardView from './views/DashboardView.vue';
import LoginView from './views/LoginView.vue';
import PlayerView from './views/PlayerView.vue';

declare module 'vue-router' {
  interface RouteMeta {
    /** Reachable signed out (sign-in, setup). */
    public?: boolean;
    /** The UI is locked to the route's bot. */
    locked?: boolean;
  }
}

export const router = createRouter({
  history: createWebHistory(`${basePath}/`),
  routes: [
    { path: '/', name: 'dashboard', component: DashboardView },
    { path: '/login', name: 'login', component: LoginView, meta: { public: true } },
    {
      path: '/setup',
      name: 'setup',
      component: () => import('./views/SetupView.vue'),
      meta: { public: true },
    },
    { path: '/player/:botId?', name: 'player', component: PlayerView },
    { path: '/bot/:botId', name: 'bot', component: PlayerView, meta: { locked: true } },
    {
      path: '/bot/:botId/music',
      name: 'bot-music',
      component: () => import('./views/MusicView.vue'),
      meta: { locked: true },
    },
    {
      path: '/bot/:botId/music/:kind(album|playlist)/:platform/:id',
      name: 'bot-collection',
      component: () => import('./views/CollectionView.vue'),
      meta: { locked: true },
    },
    { path: '/music', name: 'music', component: () => import('./views/MusicView.vue') },
    {
      path: '/music/:kind(album|playlist)/:platform/:id',
      name: 'collection',
      component: () => import('./views/CollectionView.vue'),
    },
    { path: '/settings/:tab?', name: 'settings', component: () => import('./views/SettingsView.vue') },
    { path: '/:unknown(.*)*', redirect: '/' },
  ],
});

async function guard(to: RouteLocationNormalized, from: RouteLocationNormalized) {
  if (!session.known) await refreshSession();
  if (session.needsSetup && to.name !== 'setup') return { name: 'setup' };
  // A finished wizard does not open again; one under way in this browser goes on, step to step
  // (shared/setup-wizard.ts).
  const reopensWizard = to.name === 'setup' && from.name !== 'setup' && !wizardInProgress();
  if (reopensWizard && !session.needsSetup) return { path: '/' };
  // After the admin exists, the wizard's later steps act as that admin: sign in first.
  const signInNeeded = !to.meta.public || (to.name === 'setup' && !session.needsSetup);
  if (!session.me && signInNeeded) return { name: 'login', query: { next: to.fullPath } };
  if (session.me && to.name === 'login') return { path: '/' };
  return true;
}

router.beforeEach(guard);
