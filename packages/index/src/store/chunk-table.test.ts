import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { ChunkTable } from "./chunk-table.js";
import { loadLanceDb } from "./load-lancedb.js";

const lancedbMissing = await loadLanceDb().then(
  () => false,
  () => true,
);
const folder = mkdtempSync(join(tmpdir(), "nyzhi-chunk-table-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.skipIf(lancedbMissing)("ChunkTable.connect", () => {
  it("gives every connection of the process one LanceDB session (shared, bounded caches)", async () => {
    const { lancedb } = await loadLanceDb();
    const connect = vi.spyOn(lancedb, "connect");
    try {
      const first = await ChunkTable.connect(join(folder, "a"));
      const second = await ChunkTable.connect(join(folder, "b"));
      first.close();
      second.close();
      const sessions = connect.mock.calls.map(
        (call) => ((call as unknown[])[1] as { session?: unknown } | undefined)?.session,
      );
      expect(sessions).toHaveLength(2);
      expect(sessions[0]).toBeInstanceOf(lancedb.Session);
      expect(sessions[1]).toBe(sessions[0]);
    } finally {
      connect.mockRestore();
    }
  });
});
