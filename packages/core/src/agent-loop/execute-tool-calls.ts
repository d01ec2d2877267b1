import type { ImagePart, ToolResultPart } from "@nyzhi/provider";
import type { AgentEvent, AgentEvents } from "../events/agent-events.js";
import type { Tool } from "../tools/seam/define-tool.js";
import type { AgentContext } from "./agent-context.js";
import { blockedInPlanMode } from "./plan-mode.js";
import type { ModelToolCall } from "./stream-step.js";

type Refusal = NonNullable<AgentEvents["tool-end"]["refused"]>;

interface CallResult {
  output: string;
  isError: boolean;
  refused?: Refusal;
  metadata?: Record<string, unknown>;
}

/**
 * Groups calls in order: a run of consecutive read-only calls forms one parallel batch; each
 * mutating (or unknown) call is a batch of its own, so mutations never overlap and keep their order.
 */
export function batchToolCalls(
  calls: readonly ModelToolCall[],
  lookup: (name: string) => Tool | undefined,
): ModelToolCall[][] {
  const batches: ModelToolCall[][] = [];
  let readBatch: ModelToolCall[] | undefined;
  for (const call of calls) {
    const tool = lookup(call.name);
    if (tool && !tool.mutates) {
      if (!readBatch) {
        readBatch = [];
        batches.push(readBatch);
      }
      readBatch.push(call);
    } else {
      readBatch = undefined;
      batches.push([call]);
    }
  }
  return batches;
}

/**
 * Runs the tool calls of one model step and returns one result per call, in call order, whatever
 * happens: refusals, failures and cancellation all become results, so the history stays valid.
 */
export async function executeToolCalls(
  context: AgentContext,
  calls: readonly ModelToolCall[],
  options: { signal: AbortSignal; emit: (event: AgentEvent) => void },
): Promise<ToolResultPart[]> {
  const results = new Map<string, CallResult>();
  for (const batch of batchToolCalls(calls, (name) => context.tools.get(name))) {
    if (options.signal.aborted) break;
    await Promise.all(
      batch.map(async (call) => {
        try {
          results.set(call.id, await runOneCall(context, call, options));
        } catch (error) {
          // A failing gate, hook or preview still gives the call its one result.
          const message = error instanceof Error ? error.message : String(error);
          const result: CallResult = {
            output: `Tool \`${call.name}\` could not run: ${message}`,
            isError: true,
          };
          emitEnd(context, call, result, 0, options.emit);
          results.set(call.id, result);
        }
      }),
    );
  }
  return Promise.all(
    calls.map(async (call) => {
      const result = results.get(call.id) ?? cancelled(context, call, options);
      let output = result.output;
      if (context.shapeToolResult && !result.refused) {
        try {
          output = await context.shapeToolResult(output, { name: call.name, callId: call.id });
        } catch {
          // Keep the full output in the thread when it cannot be offloaded.
        }
      }
      const part: ToolResultPart = { type: "tool-result", toolCallId: call.id, toolName: call.name, output };
      if (result.isError) part.isError = true;
      const images = imagesOf(result.metadata);
      if (images.length > 0) part.images = images;
      return part;
    }),
  );
}

function cancelled(
  context: AgentContext,
  call: ModelToolCall,
  options: { emit: (event: AgentEvent) => void },
): CallResult {
  const result: CallResult = {
    output: "Cancelled: the turn was interrupted before this call ran.",
    isError: true,
    refused: "cancelled",
  };
  emitEnd(context, call, result, 0, options.emit);
  return result;
}

async function runOneCall(
  context: AgentContext,
  call: ModelToolCall,
  options: { signal: AbortSignal; emit: (event: AgentEvent) => void },
): Promise<CallResult> {
  const { emit } = options;
  const startedAt = Date.now();
  const finish = (result: CallResult): CallResult => {
    emitEnd(context, call, result, Date.now() - startedAt, emit);
    return result;
  };
  const tool = context.tools.get(call.name);
  if (!tool) {
    const available = context.tools.names().join(", ");
    const reason = context.explainMissingTool?.(call.name);
    return finish({
      output: reason
        ? `${reason} Available tools: ${available}`
        : `Unknown tool: ${call.name}. Available tools: ${available}`,
      isError: true,
      refused: "unknown-tool",
    });
  }
  if (context.planMode && tool.mutates) {
    return finish({ output: blockedInPlanMode(call.name), isError: true, refused: "denied" });
  }
  if (call.input === undefined) {
    return finish({
      output: `Invalid arguments for ${call.name}: not valid JSON: ${call.arguments.slice(0, 500)}`,
      isError: true,
      refused: "invalid-arguments",
    });
  }
  const parsed = tool.parse(call.input);
  if (!parsed.ok) return finish({ output: parsed.error, isError: true, refused: "invalid-arguments" });

  const signal = options.signal;
  const progress = (event: { type: "output"; text: string }) =>
    emit({ type: "tool-output", agent: context.agent, callId: call.id, name: call.name, text: event.text });
  const toolContext = context.createToolContext(call.id, signal, progress);

  let paths: ReturnType<Tool["pathsOf"]>;
  try {
    paths = tool.pathsOf(parsed.input, toolContext);
  } catch (error) {
    return finish({
      output: `Invalid arguments for ${call.name}: ${String(error)}`,
      isError: true,
      refused: "invalid-arguments",
    });
  }
  const request = {
    callId: call.id,
    tool,
    input: parsed.input,
    paths,
    preview: tool.previewOf(parsed.input),
    agent: context.agent,
    signal,
  };
  const decision = await context.gate.decide(request);
  if (decision.action === "deny") {
    return finish({
      output: `Tool \`${call.name}\` was denied: ${decision.reason}`,
      isError: true,
      refused: "denied",
    });
  }
  if (decision.action === "ask") {
    // The same request object the gate decided on (it remembers why the call asks by it).
    const answer = await context.gate.approve(
      Object.assign(request, {
        announce: (id: string) =>
          emit({
            type: "approval-requested",
            agent: context.agent,
            id,
            callId: call.id,
            tool: call.name,
            input: parsed.input,
            preview: request.preview ?? "",
          }),
      }),
    );
    emit({
      type: "approval-resolved",
      agent: context.agent,
      callId: call.id,
      tool: call.name,
      approved: answer.approved,
      reason: answer.reason,
    });
    // A refusal caused by the interrupt (a killed permission hook) is a cancellation, below.
    if (!answer.approved && !signal.aborted) {
      return finish({
        output: `Tool \`${call.name}\` was not approved: ${answer.reason}`,
        isError: true,
        refused: "denied",
      });
    }
  }
  if (signal.aborted) return cancelledBeforeRun(finish);

  const blocked = await context.hooks?.beforeToolCall?.({
    callId: call.id,
    name: call.name,
    input: parsed.input,
    signal,
  });
  // The turn may have been interrupted while the pre_tool_use hooks ran (the abort kills them, so
  // they return at once): the call must not start then, whatever the hooks answered.
  if (signal.aborted) return cancelledBeforeRun(finish);
  if (blocked?.block) {
    return finish({
      output: `Tool \`${call.name}\` was blocked by a hook: ${blocked.block}`,
      isError: true,
      refused: "denied",
    });
  }
  emit({ type: "tool-start", agent: context.agent, callId: call.id, name: call.name, input: parsed.input });
  const result = await runUntilAborted(tool.run(parsed.input, toolContext), signal);
  const shaped: CallResult = { output: result.output, isError: result.isError === true };
  if (result.metadata) shaped.metadata = result.metadata;
  if (signal.aborted && !shaped.isError)
    shaped.output += "\n(the turn was interrupted after this call finished)";
  // Not the turn's signal: the tool ran, so its post hooks (an audit log, an after_edit
  // formatter) run to the end even when the turn was interrupted meanwhile; their timeout bounds them.
  await context.hooks?.afterToolCall?.({
    callId: call.id,
    name: call.name,
    input: parsed.input,
    output: shaped.output,
    isError: shaped.isError,
  });
  return finish(shaped);
}

/** The result of a call the turn's abort stopped before the tool started. */
function cancelledBeforeRun(finish: (result: CallResult) => CallResult): CallResult {
  return finish({ output: "Cancelled before it ran.", isError: true, refused: "cancelled" });
}

function emitEnd(
  context: AgentContext,
  call: ModelToolCall,
  result: CallResult,
  durationMs: number,
  emit: (event: AgentEvent) => void,
): void {
  const event: AgentEvent = {
    type: "tool-end",
    agent: context.agent,
    callId: call.id,
    name: call.name,
    output: result.output,
    isError: result.isError,
    durationMs,
  };
  if (result.refused) event.refused = result.refused;
  if (result.metadata) event.metadata = result.metadata;
  emit(event);
}

/** Cap on how long a tool may keep running after an abort before the loop stops waiting, ms. */
const ABORT_GRACE_MS = 300;

/** Waits for the tool, but no longer than a short grace after an abort (tools should stop by then). */
async function runUntilAborted(
  running: Promise<{ output: string; isError?: boolean; metadata?: Record<string, unknown> }>,
  signal: AbortSignal,
): Promise<{ output: string; isError?: boolean; metadata?: Record<string, unknown> }> {
  let onAbort: (() => void) | undefined;
  const gaveUp = new Promise<{ output: string; isError: boolean }>((resolve) => {
    onAbort = () => {
      setTimeout(
        () => resolve({ output: "Cancelled: the turn was interrupted while this call ran.", isError: true }),
        ABORT_GRACE_MS,
      ).unref();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([running, gaveUp]);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

/** Images a tool put in `metadata.images` (MCP tools do), checked so bad data never reaches a vendor. */
function imagesOf(metadata: Record<string, unknown> | undefined): ImagePart[] {
  const images = metadata?.images;
  if (!Array.isArray(images)) return [];
  return images.filter(
    (image): image is ImagePart =>
      typeof image === "object" &&
      image !== null &&
      (image as ImagePart).type === "image" &&
      typeof (image as ImagePart).mediaType === "string" &&
      typeof (image as ImagePart).data === "string",
  );
}
