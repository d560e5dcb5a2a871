// Plain-JS entry of the detector worker thread: registers tsx's loader in this thread (a worker
// does not always inherit the parent's --import hooks, e.g. under vitest) and loads the TS worker.
import { register } from 'tsx/esm/api';

register();
await import('./detect-worker.ts');
