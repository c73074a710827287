// An audio worker thread's entry. Worker threads start without the TypeScript loader the main thread
// runs under (tsx, or vitest's), so this plain module registers tsx for the thread and loads the worker.
// First the thread takes the normal priority: it starts at its creator's, the frame clock's, which may
// have been raised, and the workers run their lookahead ahead and must not compete with the clock for
// the moment it wakes. Before tsx, so that the loader thread tsx starts inherits the normal one too.
// A test's module hooks (AudioWorkerPoolOptions.loaderHooks) are registered after tsx, so they run
// before it and see every module the worker imports.
import { register } from 'node:module';
import { workerData } from 'node:worker_threads';
import { register as registerTsx } from 'tsx/esm/api';
import { NORMAL_NICENESS, trySetThreadNiceness } from '../../../shared/thread-niceness.mjs';

trySetThreadNiceness(NORMAL_NICENESS);
const tsx = registerTsx({ namespace: 'audio-worker' });
for (const hooks of workerData?.loaderHooks ?? []) register(hooks);
await tsx.import('./audio-worker.ts', import.meta.url);
