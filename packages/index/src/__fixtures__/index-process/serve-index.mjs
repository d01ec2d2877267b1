// The child of index-process-client.test.ts: `serveIndexProcess` of the built package (run
// `pnpm build` first), with one change to its index: a search for "hang" never answers, so a test
// can kill the child while a call waits.
import { createIndex, serveIndexProcess } from "../../../dist/index.js";

await serveIndexProcess({
  createIndex(options) {
    const index = createIndex(options);
    return {
      ...index,
      search: (query, searchOptions) =>
        query === "hang" ? new Promise(() => {}) : index.search(query, searchOptions),
    };
  },
});
process.exit(0);
