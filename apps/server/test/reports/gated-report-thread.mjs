// A report thread for report-threads.test.ts: it takes its report and then stays stuck
// (Atomics.wait blocks the whole thread, as a long synchronous workbook build would) until the
// test opens the gate; then it builds the report as the real thread does.
import { register } from 'tsx/esm/api';
import { workerData } from 'piscina';

register();
const { default: runReportTask } = await import('../../src/reports/report-thread.ts');

export default async function gatedReportTask(task) {
  const gate = new Int32Array(workerData.gate);
  Atomics.store(gate, 1, 1); // [1]: the report has reached its thread
  Atomics.notify(gate, 1);
  Atomics.wait(gate, 0, 0); // [0]: 0 while the gate is closed
  return runReportTask(task);
}
