#!/usr/bin/env node
import { type CliArgs, parseCliArgs, USAGE } from "./cli-args.js";
import { loadScenario } from "./scenario/load-scenario.js";
import { ScenarioError } from "./scenario/scenario-error.js";
import { startMockLlm } from "./server/start-mock-llm.js";
import type { RecordedRequest } from "./types.js";

/** `mock-llm --scenario FILE [--port N]`: runs the server until SIGINT/SIGTERM. */
async function main(argv: string[]): Promise<number> {
  let args: CliArgs;
  try {
    args = parseCliArgs(argv);
  } catch (error) {
    process.stderr.write(`mock-llm: ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let scenario: Awaited<ReturnType<typeof loadScenario>>;
  try {
    scenario = await loadScenario(args.scenarioFile ?? "");
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    process.stderr.write(`mock-llm: bad scenario ${error.message}\n`);
    return 2;
  }
  const mock = await startMockLlm({
    scenario,
    port: args.port,
    host: args.host,
    ...(args.quiet
      ? {}
      : {
          onRequestEnd: (request: RecordedRequest) => process.stderr.write(`${formatRequestLine(request)}\n`),
        }),
  });
  process.stdout.write(`mock-llm listening on ${mock.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await mock.close();
  return 0;
}

/** One log line: `#3 POST /v1/messages anthropic model=… stream rule=greet 200 12ms`. */
export function formatRequestLine(request: RecordedRequest): string {
  const duration =
    request.endedAt === undefined ? "" : ` ${Math.round(request.endedAt - request.startedAt)}ms`;
  return [
    `#${request.index}`,
    request.method,
    request.path,
    request.api,
    `model=${request.model ?? "-"}`,
    request.stream ? "stream" : "no-stream",
    `rule=${request.rule ?? "(unmatched)"}`,
    `${request.status ?? "no-status"}${duration}`,
  ].join(" ");
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `mock-llm: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
