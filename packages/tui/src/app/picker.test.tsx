import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { KEYS, press } from "../test-support/keys.js";
import { Picker, type PickerSpec } from "./picker.js";

const items = [
  { label: "Claude Sonnet", value: "anthropic/claude-sonnet" },
  { label: "GPT-5", value: "openai/gpt-5" },
];

function spec(overrides: Partial<PickerSpec> = {}): PickerSpec & { onPick: ReturnType<typeof vi.fn> } {
  return { title: "Model", items, onPick: vi.fn(), ...overrides } as PickerSpec & {
    onPick: ReturnType<typeof vi.fn>;
  };
}

describe("Picker", () => {
  it("filters as one types, moves with the arrows, picks with Enter and closes", async () => {
    const picker = spec();
    const onClose = vi.fn();
    const { stdin, lastFrame, unmount } = render(<Picker picker={picker} onClose={onClose} />);
    await press(stdin, "gpt");
    expect(lastFrame()).toContain("GPT-5");
    expect(lastFrame()).not.toContain("Claude Sonnet");
    await press(stdin, KEYS.enter);
    expect(picker.onPick).toHaveBeenCalledWith("openai/gpt-5");
    expect(onClose).toHaveBeenCalledTimes(1);
    unmount();
  });

  it("takes the typed text when nothing matches only with allowFree, and closes on Esc", async () => {
    const strict = spec();
    const onClose = vi.fn();
    const first = render(<Picker picker={strict} onClose={onClose} />);
    await press(first.stdin, "zzz", KEYS.enter);
    expect(strict.onPick).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    await press(first.stdin, KEYS.escape);
    expect(onClose).toHaveBeenCalledTimes(1);
    first.unmount();

    const free = spec({ allowFree: true });
    const second = render(<Picker picker={free} onClose={vi.fn()} />);
    await press(second.stdin, "my-model", KEYS.enter);
    expect(free.onPick).toHaveBeenCalledWith("my-model");
    second.unmount();
  });
});
