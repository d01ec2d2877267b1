import { forgetKnownSecrets, redactKnownSecrets, registerSecret } from "@nyzhi/config";
import type { AgentEvent } from "@nyzhi/core";
import { afterEach, describe, expect, it } from "vitest";
import { holdSplitSecrets } from "./hold-split-secrets.js";
import { jsonLine, jsonLinesForEvent } from "./json-event-writer.js";

const KEY = "sk-ant-SPLIT-0123456789abcdef";
const lead = { agentId: "lead", nickname: "lead", depth: 0 } as AgentEvent["agent"];
const delta = (text: string, agent = lead): AgentEvent => ({ type: "text-delta", agent, delta: text });

afterEach(() => {
  forgetKnownSecrets();
});

/** What the --json writer prints for the events, line by line. */
function jsonOutput(events: AgentEvent[]): string {
  let out = "";
  const sink = holdSplitSecrets((event) => {
    for (const line of jsonLinesForEvent(event)) out += jsonLine(line);
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
      { type: "turn-end", agent: lead, reason: "completed" } as AgentEvent,
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
