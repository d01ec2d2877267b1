// Renders `nyz exec --json` events (docs/json-events.md) for a person: each agent's lines tagged
// with its nickname, tool calls as one line each, approvals with their preview (an edit's diff),
// which agents are running at once, and a closing tree of agents with tokens and cost.

const LEAD = "lead";
const TAG_WIDTH = 13;
const EDIT_TOOLS = new Set(["edit", "multi_edit", "write", "apply_patch"]);
const COLORS = ["\u001b[36m", "\u001b[35m", "\u001b[33m", "\u001b[32m", "\u001b[34m"];

/** A renderer: `line(event)` for each JSON line, `end()` once the run is over. */
export function createDemoRenderer({ write, color, leadName = "Nizzy", autoAnswerNote }) {
  const paint = (code, text) => (color ? `${code}${text}\u001b[0m` : text);
  const dim = (text) => paint("\u001b[2m", text);
  /** agentId → { nickname, role, parentId, model, inputTokens, outputTokens, costUsd, status } */
  const agents = new Map([[LEAD, agentRecord(leadName, "lead", undefined)]]);
  const pendingText = new Map();
  /** Calls whose approval_requested was seen, and hook answers waiting for their call's tool_start. */
  const asked = new Set();
  const hookAnswers = new Map();
  const running = new Set();
  let colorIndex = 0;
  let final;

  function agentRecord(nickname, role, parentId) {
    const tint = parentId === undefined ? "\u001b[1m" : COLORS[colorIndex++ % COLORS.length];
    return { nickname, role, parentId, tint, inputTokens: 0, outputTokens: 0, costUsd: 0, status: "running" };
  }
  const agentOf = (event) => agents.get(event.agent_id ?? LEAD) ?? agents.get(LEAD);
  const tag = (agent) => paint(agent.tint, `[${agent.nickname}]`.padEnd(TAG_WIDTH));
  const say = (agent, text) => {
    for (const line of text.split("\n")) write(`${tag(agent)} ${line}\n`);
  };
  const flushText = (agentId) => {
    const text = (pendingText.get(agentId) ?? "").trim();
    pendingText.delete(agentId);
    if (text) say(agents.get(agentId) ?? agents.get(LEAD), text);
  };

  function line(event) {
    const agentId = event.agent_id ?? LEAD;
    const agent = agentOf(event);
    switch (event.type) {
      case "text_delta":
        pendingText.set(agentId, (pendingText.get(agentId) ?? "") + event.text);
        return;
      case "step_end":
      case "turn_end":
        flushText(agentId);
        return;
      case "tool_start": {
        flushText(agentId);
        // A call a permission_request hook answered has no approval_requested line (nobody was
        // asked): its approval line came first; say what was asked, then the answer, here.
        const answered = hookAnswers.get(event.id);
        if (answered) {
          hookAnswers.delete(event.id);
          say(agent, `asks to run ${event.name}: ${compactArguments(event.input)}`.trimEnd());
          say(agent, answered);
        }
        say(agent, dim(`→ ${event.name} ${compactArguments(event.input)}`));
        return;
      }
      case "tool_done":
        if (event.is_error || event.refused) say(agent, `✗ ${event.name}: ${firstLine(event.output)}`);
        else if (event.name === "bash") say(agent, dim(`  ${firstLine(event.output)}`));
        else if (EDIT_TOOLS.has(event.name)) {
          // The edit's diff, as the tool reported it (`Edited greet.js` then the hunks).
          const [summary, ...diff] = String(event.output).split("\n");
          say(agent, summary);
          for (const diffText of diff) write(`${" ".repeat(TAG_WIDTH + 1)}${diffLine(diffText)}\n`);
        }
        return;
      case "approval_requested":
        asked.add(event.id);
        flushText(agentId);
        say(
          agent,
          `asks to run ${event.tool}: ${event.preview ? "" : compactArguments(event.input)}`.trimEnd(),
        );
        if (event.preview) {
          for (const previewLine of String(event.preview).split("\n"))
            write(`${" ".repeat(TAG_WIDTH + 1)}${diffLine(previewLine)}\n`);
        }
        return;
      case "approval_granted": {
        const line = paint("\u001b[32m", `✔ approved — ${autoAnswerNote ?? event.reason}`);
        if (asked.has(event.id)) say(agent, line);
        else hookAnswers.set(event.id, line);
        return;
      }
      case "approval_denied":
        say(agent, paint("\u001b[31m", `✗ denied: ${event.reason}`));
        return;
      case "subagent_spawned": {
        const child = agentRecord(event.nickname, event.role, event.parent_id ?? LEAD);
        agents.set(event.agent_id, child);
        say(
          agents.get(event.parent_id ?? LEAD) ?? agents.get(LEAD),
          `spawned ${paint(child.tint, event.nickname)} (${event.role}) on ${event.model}`,
        );
        return;
      }
      case "subagent_status":
        if (event.status === "running" && !running.has(event.agent_id)) {
          running.add(event.agent_id);
          if (running.size > 1) {
            const names = [...running].map((id) => agents.get(id)?.nickname ?? id).join(" and ");
            write(
              dim(
                `${" ".repeat(TAG_WIDTH + 1)}${running.size} subagents running at the same time: ${names}\n`,
              ),
            );
          }
        } else if (event.status !== "running") running.delete(event.agent_id);
        return;
      case "subagent_completed":
        flushText(event.agent_id);
        running.delete(event.agent_id);
        if (agents.has(event.agent_id)) agents.get(event.agent_id).status = event.status.split(":", 1)[0];
        say(agents.get(event.agent_id) ?? agent, dim(`finished (${event.status.split(":", 1)[0]})`));
        return;
      case "usage":
        agent.inputTokens += event.input_tokens ?? 0;
        agent.outputTokens += event.output_tokens ?? 0;
        agent.costUsd += event.cost_usd ?? 0;
        return;
      case "error":
        say(agent, paint("\u001b[31m", `error: ${event.message}`));
        return;
      case "turn_complete":
        final = event;
        agents.get(LEAD).status = event.reason;
        return;
      default:
        return;
    }
  }

  function end() {
    for (const agentId of pendingText.keys()) flushText(agentId);
    write(`\n${paint("\u001b[1m", "Agents")}\n`);
    const rows = [];
    const visit = (agentId, prefix, childPrefix) => {
      const agent = agents.get(agentId);
      rows.push([`${prefix}${agent.nickname} (${agent.role})`, agent]);
      const children = [...agents.entries()].filter(([, other]) => other.parentId === agentId);
      children.forEach(([childId], index) => {
        const last = index === children.length - 1;
        visit(childId, `${childPrefix}${last ? "└─ " : "├─ "}`, `${childPrefix}${last ? "   " : "│  "}`);
      });
    };
    visit(LEAD, "", "");
    const width = Math.max(...rows.map(([label]) => label.length)) + 2;
    for (const [label, agent] of rows) {
      write(`${label.padEnd(width)}${formatTokens(agent)}  ${dim(agent.status)}\n`);
    }
    if (final) {
      write(
        `${"total".padEnd(width)}${formatTokens({ inputTokens: final.input_tokens, outputTokens: final.output_tokens, costUsd: final.cost_usd })}  ${dim(`${(final.duration_ms / 1000).toFixed(1)} s · ${final.provider}/${final.model}`)}\n`,
      );
    }
    return final;
  }

  function diffLine(text) {
    if (text.startsWith("+") && !text.startsWith("+++")) return paint("\u001b[32m", text);
    if (text.startsWith("-") && !text.startsWith("---")) return paint("\u001b[31m", text);
    return dim(text);
  }

  return { line, end };
}

function formatTokens(agent) {
  const tokens = `${agent.inputTokens.toLocaleString("en-US")} in / ${agent.outputTokens.toLocaleString("en-US")} out`;
  return `${tokens.padEnd(22)} $${agent.costUsd.toFixed(4)}`;
}

function firstLine(text) {
  const line = String(text ?? "").split("\n", 1)[0] ?? "";
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}

function compactArguments(input) {
  if (!input || typeof input !== "object") return "";
  const value = input.file_path ?? input.path ?? input.command ?? input.description ?? input.message;
  if (typeof value === "string") return firstLine(value);
  return firstLine(JSON.stringify(input));
}
