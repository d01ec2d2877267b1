import { addUsage, emptyUsage, type Usage } from "@nyzhi/provider";

/** Tokens and US dollars of model requests, and what a remote embedder charged. */
export interface UsageFigures {
  /** The model requests' tokens. */
  usage: Usage;
  /** US dollars: the model requests' and the embedder's. */
  costUsd: number;
  /** Tokens a remote embedder of the code index charged (0 for none and local ones). */
  embeddingTokens: number;
}

/** A session's totals at one moment: every run's, and this process's alone. */
export interface UsageTotals {
  /** The whole session: earlier runs (saved) plus this process's. */
  session: UsageFigures;
  /** Since this process opened the session (what `nyz exec` reports for its run). */
  sinceOpen: UsageFigures;
}

/** Tokens and US dollars of some model requests. */
export interface Spend {
  usage: Usage;
  costUsd: number;
}

/**
 * One agent's figures in this process: `subtree` its own requests plus every descendant's (at any
 * depth), `descendants` theirs alone (the lead's: what its subagents and teammates spent).
 */
export interface SubtreeTotal {
  agentId: string;
  subtree: Spend;
  descendants: Spend;
}

/** What the embedder has charged this process (tokens, US dollars). */
export type EmbeddingSpend = () => { tokens: number; costUsd: number };

export function emptyFigures(): UsageFigures {
  return { usage: emptyUsage(), costUsd: 0, embeddingTokens: 0 };
}

/**
 * The one place a session's usage is summed. Every model step of every agent (the lead, its
 * subagents at any depth, teammates) is recorded here once, by the agent loop, as it is spent;
 * the session's totals, each agent's own figures and the hosts' footers are read from it, never
 * summed again elsewhere.
 */
export class UsageLedger {
  private earlier: UsageFigures = emptyFigures();
  private spent: { usage: Usage; costUsd: number } = { usage: emptyUsage(), costUsd: 0 };
  private readonly byAgent = new Map<string, Spend>();
  /** What each agent's descendants spent (summed as they spend: a parent knows its subtree). */
  private readonly below = new Map<string, Spend>();
  /** Each agent's parent (registered by the child factory); the lead has none. */
  private readonly parents = new Map<string, string>();
  private embedding: EmbeddingSpend = () => ({ tokens: 0, costUsd: 0 });

  /** What earlier runs of the session spent (from its saved record). */
  setEarlier(figures: UsageFigures): void {
    this.earlier = figures;
  }

  /** Where the code index's embedder spend is read (it is summed by the index service). */
  setEmbedding(spend: EmbeddingSpend): void {
    this.embedding = spend;
  }

  /**
   * `agentId` was spawned by `parentId` (a subagent, or a teammate of this process under the lead):
   * from now on its steps count in the subtree totals of its parent and every ancestor.
   */
  setParent(agentId: string, parentId: string): void {
    if (agentId === parentId) return;
    this.parents.set(agentId, parentId);
  }

  /** One step's usage of `agentId`; returns the totals with it counted. */
  record(agentId: string, usage: Usage, costUsd: number): UsageTotals {
    this.spent = { usage: addUsage(this.spent.usage, usage), costUsd: this.spent.costUsd + costUsd };
    this.byAgent.set(agentId, addSpend(this.byAgent.get(agentId), usage, costUsd));
    for (const ancestor of this.ancestors(agentId))
      this.below.set(ancestor, addSpend(this.below.get(ancestor), usage, costUsd));
    return this.totals();
  }

  /** An agent's own requests in this process (its descendants not included). */
  agentTotal(agentId: string): Spend {
    return copy(this.byAgent.get(agentId));
  }

  /** An agent's own requests plus its descendants' (at any depth), in this process. */
  subtreeTotal(agentId: string): SubtreeTotal {
    const own = copy(this.byAgent.get(agentId));
    const descendants = copy(this.below.get(agentId));
    return {
      agentId,
      subtree: { usage: addUsage(own.usage, descendants.usage), costUsd: own.costUsd + descendants.costUsd },
      descendants,
    };
  }

  /** The subtree totals of `agentId` and each of its ancestors, the agent first, the root last. */
  subtreeChain(agentId: string): SubtreeTotal[] {
    return [agentId, ...this.ancestors(agentId)].map((id) => this.subtreeTotal(id));
  }

  /** The agent's parent, its parent's parent … up to the root (a cycle is cut). */
  private ancestors(agentId: string): string[] {
    const chain: string[] = [];
    let parent = this.parents.get(agentId);
    while (parent !== undefined && parent !== agentId && !chain.includes(parent)) {
      chain.push(parent);
      parent = this.parents.get(parent);
    }
    return chain;
  }

  totals(): UsageTotals {
    const embedding = this.embedding();
    const sinceOpen: UsageFigures = {
      usage: this.spent.usage,
      costUsd: this.spent.costUsd + embedding.costUsd,
      embeddingTokens: embedding.tokens,
    };
    return {
      session: {
        usage: addUsage(this.earlier.usage, sinceOpen.usage),
        costUsd: this.earlier.costUsd + sinceOpen.costUsd,
        embeddingTokens: this.earlier.embeddingTokens + sinceOpen.embeddingTokens,
      },
      sinceOpen,
    };
  }
}

function addSpend(spend: Spend | undefined, usage: Usage, costUsd: number): Spend {
  return { usage: addUsage(spend?.usage ?? emptyUsage(), usage), costUsd: (spend?.costUsd ?? 0) + costUsd };
}

function copy(spend: Spend | undefined): Spend {
  return spend ? { usage: spend.usage, costUsd: spend.costUsd } : { usage: emptyUsage(), costUsd: 0 };
}
