/** Parsed command line of `mock-llm`. */
export interface CliArgs {
  help: boolean;
  scenarioFile: string | undefined;
  port: number;
  host: string;
  quiet: boolean;
}

export const USAGE = `Usage: mock-llm --scenario FILE [--port N] [--host HOST] [--quiet]

Scripted mock LLM server for nyzhi tests, benchmarks and the offline demo.
Speaks Anthropic Messages (POST /v1/messages), OpenAI Chat Completions
(POST /v1/chat/completions), OpenAI Responses (POST /v1/responses), Gemini
(POST /v1beta/models/{model}:generateContent | :streamGenerateContent?alt=sse)
and GET /v1/models, answering from the rules of a JSON scenario file.

Options:
  --scenario FILE  JSON scenario (see tools/mock-llm/README.md); required
  --port N         port to listen on (default 0: a free port)
  --host HOST      address to bind (default 127.0.0.1)
  --quiet          do not log requests to stderr
  --help           show this help

Prints "mock-llm listening on http://HOST:PORT" on stdout once ready, and one
line per finished request on stderr. SIGINT/SIGTERM stop it. Exit code 2 for a
bad command line or scenario file.`;

/** Parses argv (without node and the script); throws an Error whose message is meant for the user. */
export function parseCliArgs(argv: string[]): CliArgs {
  const args: CliArgs = { help: false, scenarioFile: undefined, port: 0, host: "127.0.0.1", quiet: false };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? "";
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    const value = (): string => {
      const next = inline ?? argv[++index];
      if (next === undefined || next === "") throw new Error(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case "--help":
      case "-h":
        args.help = true;
        break;
      case "--scenario":
        args.scenarioFile = value();
        break;
      case "--port": {
        const text = value();
        const port = Number(text);
        if (!Number.isInteger(port) || port < 0 || port > 65535)
          throw new Error(`--port must be 0-65535, got ${text}`);
        args.port = port;
        break;
      }
      case "--host":
        args.host = value();
        break;
      case "--quiet":
        args.quiet = true;
        break;
      default:
        throw new Error(`unknown argument ${arg}`);
    }
  }
  if (!args.help && args.scenarioFile === undefined) throw new Error("--scenario FILE is required");
  return args;
}
