import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { KEYS, press } from "../test-support/keys.js";
import { renderAtWidth, widestLine } from "../test-support/render-at-width.js";
import { ApprovalDialog } from "./approval-dialog.js";
import type { ApprovalDecision, ApprovalRequestView } from "./approval-types.js";

const lead = { agentId: "lead", depth: 0 };
const scout = { agentId: "c1", depth: 2, nickname: "scout", role: "explorer" };

const bash: ApprovalRequestView = {
  id: "r1",
  tool: "bash",
  input: { command: "npm test" },
  preview: "npm test",
  agent: lead,
  cwd: "/work/project",
};
const edit: ApprovalRequestView = {
  id: "r2",
  tool: "edit",
  input: { file_path: "src/a.ts", old_string: "const b = 2;", new_string: "const b = 3;" },
  agent: scout,
};
const read: ApprovalRequestView = { id: "r3", tool: "read", input: { file_path: "/etc/hosts" }, agent: lead };

function setup(requests: ApprovalRequestView[]) {
  const onAnswer = vi.fn<(request: ApprovalRequestView, decision: ApprovalDecision) => void>();
  const view = render(<ApprovalDialog requests={requests} onAnswer={onAnswer} />);
  return { ...view, onAnswer };
}

describe("ApprovalDialog", () => {
  it("shows who asks, the command with its directory, and the choices", () => {
    const { lastFrame } = setup([bash]);
    const frame = lastFrame()!;
    expect(frame).toContain("lead wants to use bash");
    expect(frame).toContain("$ npm test");
    expect(frame).toContain("in /work/project");
    expect(frame).toContain(" Allow once (y)    Allow always (a)    Deny (n) ");
    expect(frame).not.toContain("1 of");
  });

  it("shows a subagent's nickname, role and depth, and the diff of its edit", () => {
    const frame = setup([edit]).lastFrame()!;
    expect(frame).toContain("scout (explorer) · depth 2 wants to use edit");
    expect(frame).toContain("src/a.ts +1 -1");
    expect(frame).toContain("1 - const b = 2;");
    expect(frame).toContain("1 + const b = 3;");
  });

  it("shows an edit's whole changed lines from the file, not only the replaced words", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "nyzhi-approval-"));
    await writeFile(join(cwd, "notes.txt"), "title: notes\ncolour: blue\nsize: 3\n");
    const request: ApprovalRequestView = {
      id: "r9",
      tool: "edit",
      input: { file_path: "notes.txt", old_string: "blue", new_string: "green" },
      agent: lead,
      cwd,
    };
    const frame = setup([request]).lastFrame()!;
    expect(frame).toContain("2 - colour: blue");
    expect(frame).toContain("2 + colour: green");
    expect(frame).toContain("1   title: notes");
  });

  it("shows the path of a read", () => {
    expect(setup([read]).lastFrame()).toContain("/etc/hosts");
  });

  it("answers y with allow once and a with allow always", async () => {
    const once = setup([bash]);
    await press(once.stdin, "y");
    expect(once.onAnswer).toHaveBeenCalledWith(bash, { approved: true });
    const always = setup([bash]);
    await press(always.stdin, "a", "a");
    expect(always.onAnswer).toHaveBeenCalledTimes(1);
    expect(always.onAnswer).toHaveBeenCalledWith(bash, { approved: true, always: true });
  });

  it("denies with n and sends the typed reason on Enter, or none on Esc", async () => {
    const withReason = setup([bash]);
    await press(withReason.stdin, "n");
    expect(withReason.lastFrame()).toContain("Reason for denying (optional):");
    expect(withReason.onAnswer).not.toHaveBeenCalled();
    await press(withReason.stdin, "use pnpm", KEYS.backspace, "m", KEYS.enter);
    expect(withReason.onAnswer).toHaveBeenCalledWith(bash, { approved: false, reason: "use pnpm" });

    const without = setup([bash]);
    await press(without.stdin, "n", KEYS.escape);
    expect(without.onAnswer).toHaveBeenCalledWith(bash, { approved: false });
  });

  it("keeps the reason when it arrives with its Enter in one read (a paste, a fast typist)", async () => {
    const view = setup([bash]);
    await press(view.stdin, "n", "keep it blue\r");
    expect(view.onAnswer).toHaveBeenCalledWith(bash, { approved: false, reason: "keep it blue" });
  });

  it("answers only a single letter: text meant for the input goes to onStray, and so does every key after it", async () => {
    const onAnswer = vi.fn();
    const onStray = vi.fn();
    const view = render(<ApprovalDialog requests={[bash]} onAnswer={onAnswer} onStray={onStray} />);
    await press(view.stdin, "/team\r");
    await press(view.stdin, "y");
    expect(onAnswer).not.toHaveBeenCalled();
    // Released, the dialog stops listening (the app's input takes the keys): a `y` read with the
    // text reaches onStray too, a later one reaches nobody here; none answers.
    const stray = onStray.mock.calls.map(([key]) => (key.name === "text" ? key.text : key.name));
    expect(stray.slice(0, 2)).toEqual(["/team", "return"]);
    expect(stray.slice(2).every((key) => key === "y")).toBe(true);
  });

  it("held: shown with how to answer it, and takes no keys", async () => {
    const onAnswer = vi.fn();
    const view = render(<ApprovalDialog requests={[bash]} onAnswer={onAnswer} held />);
    await press(view.stdin, "y", "a", "n", KEYS.enter, KEYS.escape);
    expect(onAnswer).not.toHaveBeenCalled();
    expect(view.lastFrame()).toContain("You were typing, so your keys stay in the input. ctrl+g: answer");
  });

  it("picks with the arrow keys and Enter", async () => {
    const view = setup([bash]);
    await press(view.stdin, KEYS.right, KEYS.enter);
    expect(view.onAnswer).toHaveBeenCalledWith(bash, { approved: true, always: true });
    const deny = setup([bash]);
    await press(deny.stdin, KEYS.left, KEYS.enter, KEYS.enter);
    expect(deny.onAnswer).toHaveBeenCalledWith(bash, { approved: false });
  });

  it("shows the queue position and moves to the next request after an answer", async () => {
    const requests = [bash, edit, read];
    const onAnswer = vi.fn((request: ApprovalRequestView, _decision: ApprovalDecision) => {
      requests.splice(requests.indexOf(request), 1);
      view.rerender(<ApprovalDialog requests={[...requests]} onAnswer={onAnswer} />);
    });
    const view = render(<ApprovalDialog requests={[...requests]} onAnswer={onAnswer} />);
    expect(view.lastFrame()).toContain("1 of 3");
    await press(view.stdin, "y");
    expect(view.lastFrame()).toContain("1 of 2");
    expect(view.lastFrame()).toContain("scout (explorer) · depth 2 wants to use edit");
    await press(view.stdin, "n", "no", KEYS.enter);
    expect(onAnswer.mock.calls.map((call) => call[1])).toEqual([
      { approved: true },
      { approved: false, reason: "no" },
    ]);
    expect(view.lastFrame()).toContain("lead wants to use read");
    expect(view.lastFrame()).not.toContain(" of ");
  });

  it("stays within 40 columns", () => {
    const { lastFrame } = renderAtWidth(<ApprovalDialog requests={[edit, bash]} onAnswer={() => {}} />, 40);
    expect(widestLine(lastFrame())).toBeLessThanOrEqual(40);
    expect(lastFrame()).toContain("Deny (n)");
  });
});
