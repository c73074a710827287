// An audio worker thread's entry. Worker threads start without the TypeScript loader the main thread
// runs under (tsx, or vitest's), so this plain module registers tsx for the thread and loads the worker.
// First the thread takes the normal priority: it starts at its creator's, the frame clock's, which may
// have been raised, and the workers run their lookahead ahead and must not compete with the clock for
// the moment it wakes. Before tsx, so that the loader thread tsx starts inherits the normal one too.
import { tsImport } from 'tsx/esm/api';
import { NORMAL_NICENESS, trySetThreadNiceness } from '../../shared/thread-niceness.mjs';

trySetThreadNiceness(NORMAL_NICENESS);
await tsImport('./audio-worker.ts', import.meta.url);
