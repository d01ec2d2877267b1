// The mock LLM in a worker thread of the bench, so the bench's own work (reading the terminal)
// never delays the mock's stream timers, and the other way round.
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

/** What the bench reads of a recorded request. */
function summary(request) {
  return {
    index: request.index,
    rule: request.rule,
    lead: request.system?.includes("You are Nizzy") === true,
    startedAt: request.startedAt,
    endedAt: request.endedAt,
  };
}

if (!isMainThread) {
  const { startMockLlm } = await import(workerData.module);
  const mock = await startMockLlm({ scenario: workerData.scenario });
  parentPort.on("message", async (message) => {
    if (message.type === "requests")
      parentPort.postMessage({ id: message.id, requests: mock.requests.map(summary) });
    if (message.type === "close") {
      await mock.close();
      parentPort.postMessage({ id: message.id });
      parentPort.close();
    }
  });
  parentPort.postMessage({ id: 0, url: mock.url });
}

/** Starts the mock with `scenario` in a worker: `{ url, requests(), close() }`. */
export async function startMockWorker(module, scenario) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { module, scenario } });
  const waiting = new Map();
  let next = 1;
  worker.on("message", (message) => {
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  const ask = (type) =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      worker.postMessage({ type, id });
    });
  const { url } = await new Promise((resolve, reject) => {
    waiting.set(0, resolve);
    worker.once("error", reject);
  });
  return {
    url,
    /** The recorded requests, as `summary` gives them. */
    requests: async () => (await ask("requests")).requests,
    close: async () => {
      await ask("close");
      await worker.terminate();
    },
  };
}
