// The database thread's entry. Worker threads start without the TypeScript loader the main thread runs
// under (tsx, or vitest's), so this plain module registers tsx for the thread and loads the worker.
// First the thread takes the normal priority, before tsx starts its loader thread: it starts at its
// creator's, which may be the frame clock's raised one, and a statement can wait where the clock cannot.
import { tsImport } from 'tsx/esm/api';
import { NORMAL_NICENESS, trySetThreadNiceness } from '../thread-niceness.mjs';

trySetThreadNiceness(NORMAL_NICENESS);
await tsImport('./threaded-client-worker.ts', import.meta.url);
