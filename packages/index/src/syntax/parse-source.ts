import { NyzhiError } from "@nyzhi/config";
import { detectLanguage } from "../chunker/languages.js";
import { getParser } from "../chunker/load-grammar.js";

/** A position in a source file: 0-based row, and column in UTF-16 code units. */
export interface SyntaxPoint {
  row: number;
  column: number;
}

/**
 * A node of a tree-sitter syntax tree: the part of web-tree-sitter's `Node` that callers read,
 * so they depend on this package rather than on the runtime. Node types and field names are the
 * grammar's (`call_expression`, `function:`, …; see the grammars' `node-types.json`). Valid only
 * inside the `read` callback of `parseSource`: the tree is freed when it returns.
 */
export interface SyntaxNode {
  readonly type: string;
  /** The node's source text. */
  readonly text: string;
  /** False for anonymous nodes: punctuation and keywords (`(`, `export`, `default`). */
  readonly isNamed: boolean;
  /** Whether this node or one below it is a syntax error or a missing token. */
  readonly hasError: boolean;
  /** Offsets in the source string (UTF-16 code units), end exclusive. */
  readonly startIndex: number;
  readonly endIndex: number;
  readonly startPosition: SyntaxPoint;
  readonly endPosition: SyntaxPoint;
  readonly parent: SyntaxNode | null;
  readonly children: readonly SyntaxNode[];
  readonly namedChildren: readonly SyntaxNode[];
  childForFieldName(field: string): SyntaxNode | null;
  childrenForFieldName(field: string): readonly SyntaxNode[];
  /** Every node below this one of one of these types, in source order (searched inside the runtime). */
  descendantsOfType(types: string | string[]): readonly SyntaxNode[];
}

/** A grammar's wasm could not be found or loaded (code `index_grammar`). */
export class GrammarLoadError extends NyzhiError {
  constructor(grammar: string, path: string, cause: unknown) {
    super(
      "index_grammar",
      `Could not load the tree-sitter grammar "${grammar}" to parse ${path}: ${cause instanceof Error ? cause.message : String(cause)}. The grammars ship in the @vscode/tree-sitter-wasm package; reinstall nyzhi if it is missing.`,
      { cause },
    );
  }
}

/**
 * Parses one file with the tree-sitter grammar of its extension (see `detectLanguage`: `.ts`,
 * `.tsx`, `.js`, `.py`, `.go`, `.rs`, …) and hands the tree's root to `read`, whose result it
 * returns; the tree is freed afterwards, so `read` copies what it needs. Resolves `undefined` for
 * a file without a grammar. A file with syntax errors still parses: the broken part becomes
 * `ERROR` nodes and the rest keeps its structure. The runtime and each grammar load once per
 * process, on first use; rejects with a `GrammarLoadError` when they cannot.
 */
export async function parseSource<T>(
  file: { path: string; content: string },
  read: (root: SyntaxNode) => T,
): Promise<T | undefined> {
  const { grammar } = detectLanguage(file.path);
  if (!grammar) return undefined;
  const parser = await getParser(grammar).catch((error: unknown) => {
    throw new GrammarLoadError(grammar, file.path, error);
  });
  const tree = parser.parse(file.content);
  // Only a cancelled parse (a progress callback or timeout, neither set here) gives no tree.
  if (!tree) throw new NyzhiError("index_parse", `tree-sitter returned no tree for ${file.path}`);
  try {
    return read(tree.rootNode);
  } finally {
    tree.delete();
  }
}
