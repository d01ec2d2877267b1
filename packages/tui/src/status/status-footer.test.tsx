import { Box } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { formatDuration } from "../tools/format-duration.js";
import { formatCost, formatTokens } from "./format-usage.js";
import type { IndexActivityView } from "./index-activity-label.js";
import { FOOTER_HINTS, StatusFooter } from "./status-footer.js";

const usage = { inputTokens: 10_000, outputTokens: 2_345, cacheReadTokens: 0, cacheWriteTokens: 0 };

describe("StatusFooter", () => {
  it("shows model, trust, tokens, cost and the idle hints", () => {
    const { lastFrame } = render(
      <StatusFooter model="sonnet" trust="off" mode="idle" usage={usage} costUsd={0.0423} />,
    );
    expect(lastFrame()).toContain("sonnet · trust off · 12k tokens · $0.042");
    expect(lastFrame()).toContain("enter send · shift+enter/ctrl+j newline · / commands · ctrl+k palette");
  });

  it("names the keys that work while busy and during an approval", () => {
    expect(render(<StatusFooter model="m" trust="full" mode="busy" queued={2} />).lastFrame()).toContain(
      "m · trust full · 2 queued",
    );
    expect(FOOTER_HINTS.busy).toBe("esc interrupt · enter queue · ctrl+b background · ctrl+t agents");
    expect(render(<StatusFooter model="m" trust="off" mode="busy" />).lastFrame()).toContain(
      "esc interrupt · enter queue",
    );
    expect(render(<StatusFooter model="m" trust="off" mode="approval" />).lastFrame()).toContain(
      "y allow · a always · n deny",
    );
  });

  it("wraps the hints between whole hints on a narrow terminal, never inside one", () => {
    for (const columns of [40, 60, 100]) {
      for (const mode of ["idle", "busy"] as const) {
        const frame = render(
          <Box width={columns}>
            <StatusFooter model="claude-sonnet-4-6" trust="off" mode={mode} />
          </Box>,
        ).lastFrame()!;
        const hintLines = frame.split("\n").slice(1);
        for (const line of hintLines) {
          for (const piece of line.trimEnd().replace(/ ·$/, "").split(" · ")) {
            expect(FOOTER_HINTS[mode].split(" · "), `${columns} columns: ${JSON.stringify(line)}`).toContain(
              piece,
            );
          }
        }
      }
    }
  });

  it("names the agents panel's keys, and counts turns in the background", () => {
    expect(render(<StatusFooter model="m" trust="off" mode="agents" />).lastFrame()).toContain(
      "↑↓ 1–9 select · enter open · esc input · ctrl+t hide",
    );
    expect(render(<StatusFooter model="m" trust="off" mode="steer" />).lastFrame()).toContain(
      "enter send to the agent · esc cancel",
    );
    expect(render(<StatusFooter model="m" trust="off" mode="idle" background={1} />).lastFrame()).toContain(
      "m · trust off · 1 in background (/bg)",
    );
  });

  it("counts the code index's embedding tokens beside the model's, their cost in the total", () => {
    const { lastFrame } = render(
      <StatusFooter
        model="m"
        trust="off"
        mode="idle"
        usage={usage}
        embeddingTokens={4_100}
        costUsd={0.0424}
      />,
    );
    expect(lastFrame()).toContain("m · trust off · 12k tokens · 4.1k embedding tokens · $0.042");
  });

  it("shows the background build's progress, then 'index ready' briefly, then nothing", async () => {
    const footer = (index: IndexActivityView) => (
      <StatusFooter model="m" trust="off" mode="idle" index={index} indexReadyShownMs={300} />
    );
    const building = { phase: "building", filesDone: 1_204, filesTotal: 3_310 } as const;
    const { lastFrame, rerender } = render(footer(building));
    expect(lastFrame()).toContain("m · trust off · indexing 1,204/3,310 files");
    rerender(footer({ phase: "ready", filesDone: 3_310, filesTotal: 3_310 }));
    await vi.waitFor(() => expect(lastFrame()).toContain("m · trust off · index ready"));
    await vi.waitFor(() => expect(lastFrame()).not.toContain("index"), { timeout: 5_000 });
    // A re-index of changed files later says nothing.
    rerender(footer({ phase: "ready", filesDone: 1, filesTotal: 3_310 }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lastFrame()).not.toContain("index");
  });

  it("says when the project was too large to index on its own, with the message, on its own line", () => {
    const message = "not indexed on its own: 25000 files (more than 20000); run `nyz index` to build it";
    const { lastFrame } = render(
      <StatusFooter
        model="m"
        trust="off"
        mode="idle"
        index={{ phase: "skipped", filesDone: 0, filesTotal: 25_000, message }}
      />,
    );
    expect(lastFrame()).toContain(`index skipped: ${message}`);
  });

  it("formats tokens, cost and durations", () => {
    expect([950, 1234, 12_345, 3_400_000, 2_000_000].map(formatTokens)).toEqual([
      "950",
      "1.2k",
      "12k",
      "3.4M",
      "2M",
    ]);
    expect([0.0004, 0.0423, 1.234].map(formatCost)).toEqual(["", "$0.042", "$1.23"]);
    expect([850, 3200, 75_000].map(formatDuration)).toEqual(["850ms", "3.2s", "1m15s"]);
  });
});
