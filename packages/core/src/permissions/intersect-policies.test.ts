import { describe, expect, it } from "vitest";
import type { ToolKind } from "../tools/seam/tool-types.js";
import { intersectPolicies } from "./intersect-policies.js";
import { createPermissionPolicy } from "./permission-policy.js";
import type { PermissionPolicy } from "./permission-types.js";
import { TRUST_MODES, type TrustSettings } from "./trust-mode.js";

const workspace = "/nonexistent-nyzhi-workspace";
const policy = (trust: Partial<TrustSettings>) =>
  createPermissionPolicy({ trust, roots: [workspace], cwd: workspace });

const REQUESTS = [
  {
    tool: "read",
    kind: "read" as ToolKind,
    mutates: false,
    input: {},
    paths: [{ path: ".env", access: "read" as const }],
  },
  {
    tool: "read",
    kind: "read" as ToolKind,
    mutates: false,
    input: {},
    paths: [{ path: "a.ts", access: "read" as const }],
  },
  {
    tool: "edit",
    kind: "edit" as ToolKind,
    mutates: true,
    input: {},
    paths: [{ path: "a.ts", access: "write" as const }],
  },
  { tool: "bash", kind: "execute" as ToolKind, mutates: true, input: {}, paths: [] },
  { tool: "git_commit", kind: "execute" as ToolKind, mutates: true, input: {}, paths: [] },
];
const RANK = { allow: 0, ask: 1, deny: 2 } as const;

async function actions(subject: PermissionPolicy) {
  return Promise.all(REQUESTS.map(async (request) => (await subject.decide(request)).action));
}

describe("intersectPolicies", () => {
  const variants: Partial<TrustSettings>[] = [
    ...TRUST_MODES.map((mode) => ({ mode })),
    { mode: "full", deny_paths: [".env"] },
    { mode: "off", auto_approve: ["bash"] },
    { mode: "limited", allow_tools: ["git_*"] },
    { mode: "full", always_ask: ["edit"], deny_tools: ["git_*"] },
  ];
  const pairs = variants.flatMap((parent) => variants.map((child) => [parent, child] as const));

  it.each(pairs)("never widens: parent %j, child %j", async (parentTrust, childTrust) => {
    const parent = policy(parentTrust);
    const child = policy(childTrust);
    const [fromParent, fromChild, combined] = await Promise.all([
      actions(parent),
      actions(child),
      actions(intersectPolicies(parent, child)),
    ]);
    combined.forEach((action, index) => {
      expect(RANK[action]).toBe(Math.max(RANK[fromParent[index]!], RANK[fromChild[index]!]));
    });
  });

  it("a full-trust child inherits the parent's deny rules", async () => {
    const parent = createPermissionPolicy({
      trust: { mode: "off", deny_paths: [".env"], deny_tools: ["web_*"] },
      roots: [workspace],
      cwd: workspace,
    });
    const child = intersectPolicies(parent, policy({ mode: "full" }));
    expect((await child.decide(REQUESTS[0]!)).action).toBe("deny");
    expect(
      (await child.decide({ tool: "web_fetch", kind: "network", mutates: false, input: {}, paths: [] }))
        .action,
    ).toBe("deny");
    expect((await child.decide(REQUESTS[3]!)).action).toBe("ask");
  });
});
