import { getLogger } from "@nyzhi/config";

type LogMethod = (message: string, ...rest: unknown[]) => void;

/**
 * A logger for the vendor SDKs, so their warnings (e.g. model deprecation notices) go to
 * nyzhi's log file instead of the terminal, where they would interleave with the agent's output.
 */
export function sdkLogger(vendor: string): {
  error: LogMethod;
  warn: LogMethod;
  info: LogMethod;
  debug: LogMethod;
} {
  const log =
    (level: "error" | "warn" | "info" | "debug"): LogMethod =>
    (message, ...rest) => {
      getLogger()[level]({ vendor, detail: rest.length > 0 ? rest.map(String) : undefined }, message);
    };
  return { error: log("error"), warn: log("warn"), info: log("info"), debug: log("debug") };
}
