// Entry of a report thread (piscina): registers tsx in this thread (Node 20 does not pass --import
// on to worker threads, and vitest's transform does not reach them), then loads the TypeScript task.
import { register } from 'tsx/esm/api';

register();
const { default: runReportTask } = await import('./report-thread.ts');
export default runReportTask;
