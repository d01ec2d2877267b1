import { compareText } from "@nyzhi/config";
import type { CallGraphSummary, HubModule } from "./project-analysis.js";

/** How many hubs and cycles the summary keeps (rendering caps further). */
const KEEP_HUBS = 20;
const KEEP_CYCLES = 20;

/**
 * Summarises the internal import graph: size, hubs (most imported, then most importing) and
 * circular dependencies (one cycle per strongly connected component, found with Tarjan's
 * algorithm, plus self-imports).
 */
export function summarizeImportGraph(
  edges: ReadonlyMap<string, ReadonlySet<string>>,
  external: ReadonlyMap<string, ReadonlySet<string>>,
): CallGraphSummary {
  const importedBy = new Map<string, number>();
  let internalEdges = 0;
  for (const targets of edges.values()) {
    internalEdges += targets.size;
    for (const target of targets) importedBy.set(target, (importedBy.get(target) ?? 0) + 1);
  }
  const hubs: HubModule[] = [...edges.keys()]
    .map((file) => ({ file, importedBy: importedBy.get(file) ?? 0, imports: edges.get(file)?.size ?? 0 }))
    .filter((hub) => hub.importedBy + hub.imports > 0)
    .sort(
      (left, right) =>
        right.importedBy - left.importedBy ||
        right.imports - left.imports ||
        compareText(left.file, right.file),
    )
    .slice(0, KEEP_HUBS);
  const externalPackages = [...external.entries()]
    .map(([name, files]) => ({ name, importedBy: files.size }))
    .sort((left, right) => right.importedBy - left.importedBy || compareText(left.name, right.name))
    .slice(0, 10);
  return {
    modules: edges.size,
    internalEdges,
    averageImports: edges.size === 0 ? 0 : Math.round((internalEdges / edges.size) * 100) / 100,
    externalPackages,
    hubs,
    cycles: findCycles(edges).slice(0, KEEP_CYCLES),
  };
}

/** One cycle per strongly connected component of more than one module (and each self-import). */
export function findCycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  const connect = (node: string) => {
    // Iterative Tarjan: deep import chains must not overflow the call stack.
    const work: { node: string; targets: string[]; next: number }[] = [];
    const enter = (entered: string) => {
      index.set(entered, counter);
      low.set(entered, counter);
      counter += 1;
      stack.push(entered);
      onStack.add(entered);
      work.push({ node: entered, targets: [...(edges.get(entered) ?? [])].sort(), next: 0 });
    };
    enter(node);
    while (work.length > 0) {
      const frame = work.at(-1)!;
      if (frame.next < frame.targets.length) {
        const target = frame.targets[frame.next++]!;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component);
      }
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) connect(node);
  const cycles: string[][] = [];
  for (const component of components) {
    if (component.length === 1) {
      const only = component[0]!;
      if (edges.get(only)?.has(only)) cycles.push([only]);
      continue;
    }
    cycles.push(cycleWithin(new Set(component), edges));
  }
  return cycles.sort((left, right) => compareText(left[0]!, right[0]!));
}

/** A shortest cycle through the alphabetically first module of a strongly connected component. */
function cycleWithin(
  members: ReadonlySet<string>,
  edges: ReadonlyMap<string, ReadonlySet<string>>,
): string[] {
  const start = [...members].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of [...(edges.get(node) ?? [])].sort()) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return path;
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start];
}
