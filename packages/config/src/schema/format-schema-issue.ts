import type { z } from "zod";
import { isSecretKeyPath, REDACTED_VALUE } from "../display/redact-secrets.js";
import { getAtPath, isPlainObject, joinKeyPath } from "../key-paths/key-path.js";
import { formatTomlValue } from "../toml/format-toml-value.js";

type Issue = z.core.$ZodIssue;

export interface DescribedIssue {
  path: string[];
  /** `expected one of off, limited, autoedit, full; got "fulll"` (without the key path). */
  problem: string;
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean (true or false)",
  object: "a table",
  record: "a table",
  array: "an array",
};

function got(value: unknown, path?: readonly string[]): string {
  if (value === undefined) return "nothing";
  // Never echo a credential into an error message (terminals, CI logs, screenshots).
  if (path && isSecretKeyPath(path.join("."))) return REDACTED_VALUE;
  return formatTomlValue(value);
}

function bound(issue: Issue & { minimum?: unknown; maximum?: unknown; inclusive?: boolean }): string {
  if (issue.code === "too_small") return `${issue.inclusive ? ">=" : ">"} ${String(issue.minimum)}`;
  return `${issue.inclusive ? "<=" : "<"} ${String(issue.maximum)}`;
}

/**
 * Turns one zod issue into a path and a sentence a user can act on. `root` is the validated
 * input, used to show what was actually written and to explain MCP server entries.
 */
export function describeIssue(issue: Issue, root: unknown): DescribedIssue {
  const path = issue.path.map((segment) => String(segment));
  const actual = getAtPath(root, path);
  switch (issue.code) {
    case "invalid_value": {
      const expected = `one of ${issue.values.map((value) => String(value)).join(", ")}`;
      if (actual === undefined) return { path, problem: `required key is missing (expected ${expected})` };
      return { path, problem: `expected ${expected}; got ${got(actual, path)}` };
    }
    case "invalid_type": {
      // A schema can name its type itself (`{ error: "expected an integer" }`).
      const custom = issue.message.startsWith("expected ")
        ? issue.message.slice("expected ".length)
        : undefined;
      const expected = custom ?? TYPE_NAMES[issue.expected] ?? issue.expected;
      if (actual === undefined) return { path, problem: `required key is missing (expected ${expected})` };
      return { path, problem: `expected ${expected}; got ${got(actual, path)}` };
    }
    case "too_small":
    case "too_big":
      return { path, problem: `expected a number ${bound(issue)}; got ${got(actual, path)}` };
    case "invalid_union":
      return describeUnionIssue(issue, path, actual, root);
    default:
      return { path, problem: `${issue.message}; got ${got(actual, path)}` };
  }
}

/**
 * The only union is an MCP server: stdio when `command` is present, else http when `url` is.
 * Report the errors of the variant the entry was meant to be, or that it is neither.
 */
function describeUnionIssue(
  issue: Issue & { errors: Issue[][] },
  path: string[],
  actual: unknown,
  root: unknown,
): DescribedIssue {
  if (isPlainObject(actual)) {
    const variant = "command" in actual ? 0 : "url" in actual ? 1 : -1;
    const inner = variant >= 0 ? issue.errors[variant]?.[0] : undefined;
    if (inner) {
      const nested = describeIssue({ ...inner, path: [...path, ...inner.path] } as Issue, root);
      return nested;
    }
    return {
      path,
      problem: "expected `command` (a stdio server) or `url` (an http server); the entry has neither",
    };
  }
  return { path, problem: `expected a table with \`command\` or \`url\`; got ${got(actual, path)}` };
}

/** `agent.trust.mode: expected one of …` */
export function formatIssueLine(described: DescribedIssue): string {
  return `${joinKeyPath(described.path)}: ${described.problem}`;
}
