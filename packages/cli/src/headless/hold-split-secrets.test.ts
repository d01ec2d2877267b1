import { forgetKnownSecrets, redactKnownSecrets, registerSecret } from "@nyzhi/config";
import type { AgentEvent } from "@nyzhi/core";
import { afterEach, describe, expect, it } from "vitest";
import { holdSplitSecrets } from "./hold-split-secrets.js";
import { createJsonEventWriter, jsonLine } from "./json-event-writer.js";

const KEY = "sk-ant-SPLIT-0123456789abcdef";
const lead = { agentId: "lead", nickname: "lead", depth: 0 } as AgentEvent["agent"];
const delta = (text: string, agent = lead): AgentEvent => ({ type: "text-delta", agent, delta: text });

afterEach(() => {
  forgetKnownSecrets();
});

/** What the --json writer prints for the events, line by line. */
function jsonOutput(events: AgentEvent[]): string {
  let out = "";
  const linesFor = createJsonEventWriter();
  const sink = holdSplitSecrets((event) => {
    for (const line of linesFor(event)) out += jsonLine(line);
  });
  for (const event of events) sink.emit(event);
  sink.flush();
  return out;
}

describe("holdSplitSecrets", () => {
  it("joins a key streamed across deltas so the writer redacts it whole", () => {
    registerSecret(KEY);
    const out = jsonOutput([
      delta("Your key is sk-ant-SP"),
      delta("LIT-0123"),
      delta("456789abcdef, keep it safe."),
      { type: "notice", agent: lead, message: "done" } as AgentEvent,
    ]);
    expect(out).not.toContain("SPLIT");
    const text = out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; text?: string })
      .filter((line) => line.type === "text_delta")
      .map((line) => line.text)
      .join("");
    expect(text).toBe("Your key is [redacted], keep it safe.");
  });

  it("joins a key a command printed across tool_output pieces, per call, whatever runs in parallel", () => {
    registerSecret(KEY);
    const output = (callId: string, text: string) =>
      ({ type: "tool-output", agent: lead, callId, name: "bash", text }) as AgentEvent;
    const out = jsonOutput([
      output("a", "key=sk-ant-SPL"),
      output("b", "other call\n"),
      output("a", "IT-0123456789abcdef\n"),
      { type: "reasoning-delta", agent: lead, delta: "thinking sk-ant-" } as AgentEvent,
      { type: "reasoning-delta", agent: lead, delta: "SPLIT-0123456789abcdef" } as AgentEvent,
    ]);
    expect(out).not.toContain("SPLIT");
    const lines = out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; id?: string; text: string });
    const joined = (keep: (line: { type: string; id?: string }) => boolean) =>
      lines
        .filter(keep)
        .map((line) => line.text)
        .join("");
    expect(joined((line) => line.id === "a")).toBe("key=[redacted]\n");
    expect(joined((line) => line.id === "b")).toBe("other call\n");
    expect(joined((line) => line.type === "reasoning_delta")).toBe("thinking [redacted]");
  });

  it("passes text through unchanged and in order when nothing is held", () => {
    const seen: string[] = [];
    const sink = holdSplitSecrets((event) => {
      if (event.type === "text-delta") seen.push(event.delta);
      else seen.push(`<${event.type}>`);
    });
    sink.emit(delta("hello "));
    sink.emit(delta("world"));
    sink.emit({ type: "notice", agent: lead, message: "n" } as AgentEvent);
    expect(seen).toEqual(["hello ", "world", "<notice>"]);
  });

  it("sends a held tail before the next other event, and on flush", () => {
    registerSecret(KEY);
    const seen: string[] = [];
    const sink = holdSplitSecrets((event) => {
      seen.push(event.type === "text-delta" ? event.delta : `<${event.type}>`);
    });
    sink.emit(delta("almost sk-"));
    expect(seen).toEqual(["almost "]);
    sink.emit({ type: "notice", agent: lead, message: "n" } as AgentEvent);
    expect(seen).toEqual(["almost ", "sk-", "<notice>"]);
    sink.emit(delta("ends with sk-ant"));
    sink.flush();
    expect(seen).toEqual(["almost ", "sk-", "<notice>", "ends with ", "sk-ant"]);
  });
});

describe("jsonLine", () => {
  it("redacts a known key quoted anywhere in an event (a provider error)", () => {
    registerSecret(KEY);
    const line = jsonLine({ type: "error", message: `401 invalid x-api-key: ${KEY}` });
    expect(line).toBe('{"message":"401 invalid x-api-key: [redacted]","type":"error"}\n');
    expect(redactKnownSecrets(line)).toBe(line);
  });
});
