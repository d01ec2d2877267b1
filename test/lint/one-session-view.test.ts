import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Issue 28, decision 025: the app reduces its session's events once, in one view of the session
// (`packages/tui/src/session-view/`), fed by one pump; the transcript, the status line and the
// agents panel read slices of it. A second state reducing the same events (a transcript reducer
// in a component, a store of the panel's own) would show the same session twice, kept apart.
const root = fileURLToPath(new URL("../..", import.meta.url));
const TUI = join(root, "packages/tui/src");

function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "test-support" ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Files (relative to packages/tui/src) whose code, not comments, matches `pattern`. */
function using(pattern: RegExp): string[] {
  return sources(TUI)
    .filter((file) => {
      const code = readFileSync(file, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/^\s*\/\/.*$/gm, "");
      return pattern.test(code);
    })
    .map((file) => relative(TUI, file))
    .sort();
}

describe("the app's one view of its session", () => {
  it("is reduced in one place: the event reducers are called by the session view only", () => {
    // The slices' reducers, and who may call them: the view; an agent's transcript is the one
    // transcript reducer over that agent's events (agent-transcripts.ts, called by the view).
    expect(using(/\btranscriptReducer\b/)).toEqual([
      "agents/agent-transcripts.ts",
      "index.ts",
      "session-view/session-view.ts",
      "transcript/transcript-reducer.ts",
    ]);
    expect(using(/\b(agentTreeReducer|reduceAgentTree)\b/)).toEqual([
      "agents/agents-reducer.ts",
      "index.ts",
      "session-view/session-view.ts",
    ]);
    expect(using(/\bagentTranscriptsReducer\b/)).toEqual([
      "agents/agent-transcripts.ts",
      "index.ts",
      "session-view/session-view.ts",
    ]);
  });

  it("is the one state the pump feeds: no React reducer, no other store of events in the app", () => {
    expect(using(/\buseReducer\s*\(/)).toEqual([]);
    // One pump, in the app, into the one store.
    expect(using(/(?<!function )\buseBatchedDispatch\s*[<(]/)).toEqual(["app/app.tsx"]);
    expect(using(/\bcreateSessionViewStore\b/)).toEqual([
      "app/app.tsx",
      "index.ts",
      "session-view/session-view-store.ts",
    ]);
    const app = readFileSync(join(TUI, "app/app.tsx"), "utf8");
    expect(app).toMatch(/useBatchedDispatch<TranscriptInput>\(view\.pushAll\b/);
    // The panel's own store and state are gone: it reads the view's slices.
    expect(using(/\b(createAgentsPanelStore|reduceAgentsPanel|createEventBatcher)\b/)).toEqual([]);
  });
});
