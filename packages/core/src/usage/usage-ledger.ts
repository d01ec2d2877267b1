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
  private readonly byAgent = new Map<string, { usage: Usage; costUsd: number }>();
  private embedding: EmbeddingSpend = () => ({ tokens: 0, costUsd: 0 });

  /** What earlier runs of the session spent (from its saved record). */
  setEarlier(figures: UsageFigures): void {
    this.earlier = figures;
  }

  /** Where the code index's embedder spend is read (it is summed by the index service). */
  setEmbedding(spend: EmbeddingSpend): void {
    this.embedding = spend;
  }

  /** One step's usage of `agentId`; returns the totals with it counted. */
  record(agentId: string, usage: Usage, costUsd: number): UsageTotals {
    this.spent = { usage: addUsage(this.spent.usage, usage), costUsd: this.spent.costUsd + costUsd };
    const own = this.byAgent.get(agentId) ?? { usage: emptyUsage(), costUsd: 0 };
    this.byAgent.set(agentId, { usage: addUsage(own.usage, usage), costUsd: own.costUsd + costUsd });
    return this.totals();
  }

  /** An agent's own requests in this process (its descendants not included). */
  agentTotal(agentId: string): { usage: Usage; costUsd: number } {
    const own = this.byAgent.get(agentId);
    return own ? { usage: own.usage, costUsd: own.costUsd } : { usage: emptyUsage(), costUsd: 0 };
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
