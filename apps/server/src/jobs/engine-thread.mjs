// Entry of the engine thread: registers tsx in this thread (Node 20 does not pass --import on to
// worker threads; Node 24 does, and the thread is started without it, see startThread), then
// runs the TypeScript task runner.
import { register } from 'tsx/esm/api';

register();
await import('./engine-thread.ts');
