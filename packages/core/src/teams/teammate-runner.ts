import type { ModelMessage } from "@nyzhi/provider";
import { addUsage, emptyUsage, type Usage } from "@nyzhi/provider";
import type { AgentContext } from "../agent-loop/agent-context.js";
import { runTurn } from "../agent-loop/run-turn.js";
import type { AgentEvent, SubagentState } from "../events/agent-events.js";
import type { LifecycleHooks } from "../hooks/lifecycle-hooks.js";
import type { Tool } from "../tools/seam/define-tool.js";
import { InboxWatcher } from "./inbox-watcher.js";
import type { Mailbox } from "./mailbox.js";
import { formatTeammateMessages, parseStructured, structuredText, type TeamMessage } from "./team-message.js";
import type { TeamStore } from "./team-store.js";
import type { MemberState } from "./team-types.js";

/** How many turns in a row a `teammate_idle` hook (exit 2) may keep a teammate working. */
export const MAX_KEEP_WORKING_TURNS = 5;

export interface TeammateRunnerOptions {
  team: string;
  member: string;
  color: string;
  context: AgentContext;
  mailbox: Mailbox;
  store: TeamStore;
  lifecycle: Pick<LifecycleHooks, "teammateIdle">;
  /** Where the teammate's events and status changes go (the lead's stream or the host). */
  emit: (event: AgentEvent) => void;
  /** The tag status events are reported under (the lead). */
  parent: AgentEvent["agent"];
  leadName: () => Promise<string>;
  /** Plan mode: these tools (the mutating ones) come back when the lead approves the plan. */
  withheldTools?: Tool[];
  /** Prompt fragments to drop when the plan is approved. */
  onPlanApproved?: () => void;
  pollMs?: number;
}

/** A teammate's state as the same data as a subagent's (`SubagentState`). */
export function teammateState(state: MemberState): SubagentState {
  switch (state) {
    case "pending":
      return { lifecycle: "pending" };
    case "working":
      return { lifecycle: "running" };
    case "idle":
      return { lifecycle: "idle" };
    case "shutdown":
    case "stopped":
      return { lifecycle: "shutdown" };
  }
}

/**
 * A long-lived teammate: runs a turn, goes idle (telling the lead), sleeps until its inbox has
 * unread mail, wakes with those messages as its next input, and so on until a shutdown request
 * (answered with a `shutdown_response`) or `stop()` (the session ends). Messages that arrive while
 * it works are injected at its next step through `takePending` and marked read only then.
 */
export class TeammateRunner {
  state: MemberState = "pending";
  private readonly controller = new AbortController();
  private readonly watcher: InboxWatcher;
  private shutdownRequest: { from: string; requestId: unknown } | undefined;
  private planMode: boolean;
  private running: Promise<void> | undefined;

  constructor(private readonly options: TeammateRunnerOptions) {
    this.watcher = new InboxWatcher(options.mailbox, options.team, options.member, options.pollMs);
    this.planMode = (options.withheldTools?.length ?? 0) > 0;
  }

  get agentId(): string {
    return this.options.context.agent.agentId;
  }

  get inPlanMode(): boolean {
    return this.planMode;
  }

  /** Starts the loop with the spawn message as the first input. */
  start(message: string): void {
    this.running = this.loop(message);
  }

  /** A sender in this process wrote to the inbox: check now instead of at the next poll. */
  notify(): void {
    this.watcher.notify();
  }

  /** Ends the loop (aborting a running turn); the member is recorded as `stopped`. */
  async stop(): Promise<void> {
    this.controller.abort();
    this.watcher.close();
    await this.running;
  }

  /** Resolves when the loop has ended. */
  async finished(): Promise<void> {
    await this.running;
  }

  /** The context's `takePendingMessages`: unread mail, marked read as it enters the thread. */
  takePending = async (): Promise<ModelMessage[]> => {
    const messages = await this.take();
    return messages.length > 0 ? [{ role: "user", content: this.absorb(messages) }] : [];
  };

  /** Unread mail for `read_inbox`, with the same side effects as injection. */
  async readInbox(): Promise<TeamMessage[]> {
    const messages = await this.take();
    this.absorb(messages);
    return messages;
  }

  private async take(): Promise<TeamMessage[]> {
    return this.options.mailbox.takeUnread(this.options.team, this.options.member).catch(() => []);
  }

  /** Acts on control messages (shutdown, plan approval) and formats all of them for the model. */
  private absorb(messages: readonly TeamMessage[]): string {
    for (const message of messages) {
      const structured = parseStructured(message.text);
      if (structured?.type === "shutdown_request")
        this.shutdownRequest = { from: message.from, requestId: structured.request_id };
      if (structured?.type === "plan_approval_response" && structured.approve === true && this.planMode) {
        this.planMode = false;
        for (const tool of this.options.withheldTools ?? []) this.options.context.tools.register(tool);
        this.options.onPlanApproved?.();
      }
    }
    return formatTeammateMessages(messages);
  }

  private async loop(first: string): Promise<void> {
    const { signal } = this.controller;
    let input: string | undefined = first;
    let keptWorking = 0;
    try {
      while (!signal.aborted) {
        if (input !== undefined) {
          await this.setState("working");
          const text = await this.runOneTurn(input);
          input = undefined;
          if (signal.aborted || this.shutdownRequest) break;
          const idle = await this.options.lifecycle.teammateIdle({
            team_name: this.options.team,
            teammate_name: this.options.member,
          });
          if (idle.keepWorking !== undefined && keptWorking < MAX_KEEP_WORKING_TURNS) {
            keptWorking += 1;
            input = idle.keepWorking || "Keep working.";
            continue;
          }
          keptWorking = 0;
          // Tell the lead before flipping to idle, so whoever sees "idle" also finds the notice.
          await this.sendToLead(
            structuredText("idle_notification", {
              teammate_name: this.options.member,
              team_name: this.options.team,
              last_message: text.length > 2000 ? `${text.slice(0, 2000)}…` : text,
            }),
          );
          await this.setState("idle");
        }
        if (!(await this.watcher.waitForUnread(signal))) break;
        // Busy from the moment it takes its mail, so nobody sees "idle, nothing unread" meanwhile.
        this.state = "working";
        const messages = await this.take();
        if (messages.length === 0) {
          this.state = "idle";
          continue;
        }
        input = this.absorb(messages);
        if (this.shutdownRequest) break;
      }
    } catch (error) {
      this.options.emit({
        type: "error",
        agent: this.options.context.agent,
        message: `teammate ${this.options.member} stopped: ${(error as Error).message}`,
        code: "teammate_failed",
        fatal: false,
      });
    }
    await this.finish();
  }

  private async runOneTurn(input: string): Promise<string> {
    const turn = runTurn(this.options.context, input, { signal: this.controller.signal });
    let next = await turn.next();
    while (!next.done) {
      // Its turns too (each wake-up is one): hosts show them from these.
      this.options.emit(next.value);
      next = await turn.next();
    }
    this.usageTotal = addUsage(this.usageTotal, next.value.usage);
    this.costTotal += next.value.costUsd;
    return next.value.text;
  }

  private usageTotal: Usage = emptyUsage();
  private costTotal = 0;

  /** Tokens and cost of every turn this teammate has run. */
  usage(): { usage: Usage; costUsd: number } {
    return { usage: this.usageTotal, costUsd: this.costTotal };
  }

  private async finish(): Promise<void> {
    this.watcher.close();
    if (this.shutdownRequest) {
      await this.options.mailbox
        .send(this.options.team, this.shutdownRequest.from, {
          from: this.options.member,
          color: this.options.color,
          text: structuredText("shutdown_response", {
            request_id: this.shutdownRequest.requestId,
            approve: true,
            teammate_name: this.options.member,
          }),
        })
        .catch(() => undefined);
      await this.setState("shutdown");
    } else {
      await this.setState("stopped");
    }
  }

  private async sendToLead(text: string): Promise<void> {
    await this.options.mailbox.send(this.options.team, await this.options.leadName(), {
      from: this.options.member,
      color: this.options.color,
      text,
    });
  }

  /** Records the state in config.json first, so whoever sees it here also finds it on disk. */
  private async setState(state: MemberState): Promise<void> {
    await this.options.store
      .updateMember(this.options.team, this.options.member, {
        state,
        pid: process.pid,
        state_at: new Date().toISOString(),
      })
      .catch(() => undefined);
    this.state = state;
    this.options.emit({
      type: "subagent-status-changed",
      agent: this.options.parent,
      childId: this.agentId,
      nickname: this.options.member,
      status: state,
      child: this.options.context.agent,
      state: teammateState(state),
    });
  }
}
