import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { WorkingLine } from "./working-line.js";

describe("WorkingLine", () => {
  it("shows a spinner and the time since Enter from the first moment", () => {
    const now = Date.now();
    const view = render(<WorkingLine since={now - 12_000} lastActivityAt={() => now} provider="anthropic" />);
    expect(view.lastFrame()).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] working · 12s$/);
    view.unmount();
  });

  it("says when the provider has sent nothing for 30 s, and how to stop", () => {
    const now = Date.now();
    const view = render(
      <WorkingLine since={now - 95_000} lastActivityAt={() => now - 41_000} provider="anthropic" />,
    );
    expect(view.lastFrame()).toContain("working · 1m 35s · no answer from anthropic for 41 s; esc to stop");
    view.unmount();
  });
});
