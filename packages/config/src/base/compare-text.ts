/**
 * Orders strings by UTF-16 code unit, for sorting names, ids and timestamps. Use it instead of
 * `localeCompare`: the first `localeCompare` call loads ICU collation data (~10 ms, measured on
 * `nyz exec` start-up), and listings then also depend on the user's locale. Names here are
 * identifiers and ISO timestamps, for which code-unit order is the expected order.
 */
export function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
