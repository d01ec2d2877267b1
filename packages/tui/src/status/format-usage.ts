/** Token counts for a status line: 950 → "950", 12_345 → "12.3k", 3_400_000 → "3.4M". */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0).replace(/\.0$/, "")}k`;
  return `${(count / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
}

/** US dollars: "$0.042" below a dollar, "$1.23" above; "" below a tenth of a cent. */
export function formatCost(usd: number): string {
  if (usd < 0.001) return "";
  return usd < 1 ? `$${usd.toFixed(3)}` : `$${usd.toFixed(2)}`;
}
