import { Text } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { until } from "../test-support/fake-session.js";
import { BEL, type NotifySettings, useNotify } from "./use-notify.js";

function Probe(props: { settings: NotifySettings; busy: boolean; approvals: number }) {
  useNotify({ initial: props.settings, busy: props.busy, approvalsWaiting: props.approvals });
  return <Text>probe</Text>;
}

const bells = (frames: readonly string[]) => frames.filter((frame) => frame.includes(BEL)).length;

describe("useNotify", () => {
  it("rings when a turn longer than the threshold ends, not after a shorter one", async () => {
    const long = { bell: true, desktop: false, afterMs: 0 };
    const view = render(<Probe settings={long} busy={true} approvals={0} />);
    await new Promise((resolve) => setTimeout(resolve, 10));
    view.rerender(<Probe settings={long} busy={false} approvals={0} />);
    await until(() => bells(view.frames) === 1);

    const short = { bell: true, desktop: false, afterMs: 60_000 };
    const quiet = render(<Probe settings={short} busy={true} approvals={0} />);
    await new Promise((resolve) => setTimeout(resolve, 10));
    quiet.rerender(<Probe settings={short} busy={false} approvals={0} />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bells(quiet.frames)).toBe(0);
  });

  it("rings once when an approval starts waiting", async () => {
    const settings = { bell: true, desktop: false, afterMs: 60_000 };
    const view = render(<Probe settings={settings} busy={false} approvals={0} />);
    view.rerender(<Probe settings={settings} busy={false} approvals={1} />);
    await until(() => bells(view.frames) === 1);
    // The same approval still waiting, or answered, rings no more.
    view.rerender(<Probe settings={settings} busy={false} approvals={1} />);
    view.rerender(<Probe settings={settings} busy={false} approvals={0} />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bells(view.frames)).toBe(1);
  });

  it("stays quiet with the bell off", async () => {
    const settings = { bell: false, desktop: false, afterMs: 0 };
    const view = render(<Probe settings={settings} busy={true} approvals={0} />);
    await new Promise((resolve) => setTimeout(resolve, 10));
    view.rerender(<Probe settings={settings} busy={false} approvals={1} />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(bells(view.frames)).toBe(0);
  });
});
