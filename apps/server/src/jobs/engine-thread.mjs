// Entry of the engine thread: registers tsx in this thread (Node 20 does not pass --import on to
// worker threads), then runs the TypeScript task runner.
import { register } from 'tsx/esm/api';

register();
await import('./engine-thread.ts');
