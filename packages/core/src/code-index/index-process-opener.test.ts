import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig, type NyzhiConfig } from "@nyzhi/config";
import { type CodeIndex, createIndex, IndexProcessError } from "@nyzhi/index";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CodeIndexService, type IndexActivity } from "./code-index-service.js";

/**
 * CodeIndexService over an index served by a child process (`IndexProcess`): the child counts
 * the files of a first build, and a child that ended makes a search fall back instead of failing.
 * The child is stood in for by an in-process index with the same extra method and errors.
 */
let root: string;
let home: string;

function config(): NyzhiConfig {
  const value = defaultConfig();
  value.index.embedding = "none";
  return value;
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "nyzhi-index-process-service-"));
  home = await mkdtemp(join(tmpdir(), "nyzhi-index-process-home-"));
  await mkdir(join(root, "src"));
  await writeFile(join(root, "src", "invoice.ts"), "export function computeInvoiceTotal() {}\n");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

describe("CodeIndexService with an index in a child process", () => {
  it("has the index's process count a first build's files instead of walking the project here", async () => {
    const counted: (readonly string[] | undefined)[] = [];
    const local = createIndex({ root, env: { NYZHI_HOME: home }, config: config(), embedder: null });
    const inChild: CodeIndex & { countFiles(options?: { exclude?: readonly string[] }): Promise<number> } = {
      ...local,
      countFiles: async (options) => {
        counted.push(options?.exclude);
        return 25_000;
      },
    };
    const activity: IndexActivity[] = [];
    const settings = config();
    settings.index.exclude = ["vendor/**"];
    const service = new CodeIndexService({
      root,
      env: { NYZHI_HOME: home },
      config: settings,
      open: async () => inChild,
      watch: false,
      onActivity: (step) => activity.push(step),
    });
    service.start({ delayMs: 0 });
    for (const started = Date.now(); activity.length === 0 && Date.now() - started < 10_000; )
      await new Promise((resolve) => setTimeout(resolve, 20));
    await service.settled();
    expect(counted).toEqual([["vendor/**"]]);
    expect(activity).toEqual([expect.objectContaining({ phase: "skipped", filesTotal: 25_000 })]);
    expect(await service.isBuilt()).toBe(false);
    await service.close();
  });

  it("answers a search whose index process ended with undefined (the full-text fallback)", async () => {
    const manifest = join(home, "manifest.json");
    await writeFile(manifest, "{}");
    const gone: CodeIndex = {
      ...createIndex({ root, env: { NYZHI_HOME: home }, config: config(), embedder: null }),
      search: async () => {
        throw new IndexProcessError(
          "index_process_exited",
          "The code index's process was killed by SIGKILL.",
        );
      },
    };
    const service = new CodeIndexService({
      root,
      env: { NYZHI_HOME: home },
      config: config(),
      open: async () => gone,
      manifestPath: async () => manifest,
      watch: false,
    });
    expect(await service.search("invoice")).toBeUndefined();
    await service.close();
  });
});
