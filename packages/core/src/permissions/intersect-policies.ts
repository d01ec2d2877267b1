import type { PermissionDecision, PermissionPolicy } from "./permission-types.js";

const STRICTNESS: Record<PermissionDecision["action"], number> = { allow: 0, ask: 1, deny: 2 };

/**
 * The policy for a child agent: a call is allowed only when both the parent and the child
 * allow it, asks when either asks, and is denied when either denies. So a child never has more
 * trust than its parent and inherits every deny rule, whatever its own settings say.
 */
export function intersectPolicies(parent: PermissionPolicy, child: PermissionPolicy): PermissionPolicy {
  return {
    async decide(request) {
      const [fromParent, fromChild] = await Promise.all([parent.decide(request), child.decide(request)]);
      if (fromParent.action === "ask" && fromChild.action === "ask") {
        return { ...fromParent, rememberable: fromParent.rememberable && fromChild.rememberable };
      }
      return STRICTNESS[fromChild.action] > STRICTNESS[fromParent.action] ? fromChild : fromParent;
    },
  };
}
