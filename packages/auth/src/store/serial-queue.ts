/**
 * Runs async tasks one at a time, in call order. A failed task does not stop the ones queued
 * after it. Used to serialise read-modify-write cycles on a store within one process.
 */
export function createSerialQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}
