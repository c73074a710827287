// The database thread's entry. Worker threads start without the TypeScript loader the main thread runs
// under (tsx, or vitest's), so this plain module registers tsx for the thread and loads the worker.
import { tsImport } from 'tsx/esm/api';

await tsImport('./threaded-client-worker.ts', import.meta.url);
