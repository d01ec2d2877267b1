import { getLogger } from "@nyzhi/config";
import type { CodeChunk } from "../types.js";
import { assemblePieces, trimBlankRows } from "./assemble-pieces.js";
import { extractSyntaxItems, type SyntaxPiece } from "./extract-syntax-units.js";
import { detectLanguage, type GrammarName } from "./languages.js";
import { getParser } from "./load-grammar.js";
import { RULES_BY_GRAMMAR } from "./rules-by-grammar.js";
import { splitPiece, windowChunks } from "./split-piece.js";

/**
 * The chunks of one file, in file order. A file in a language with a grammar (see languages.ts)
 * is cut along its syntax: a `preamble`, one chunk per function, method, type and class header,
 * `module` chunks for top-level code between them, each split into parts when over the token
 * budget. Other files, and files the parser cannot make sense of, are cut into `window`s. Never
 * throws for a file's content: a grammar that fails to load or a file that fails to parse falls
 * back to windows, with a line in the log.
 */
export async function chunkFile(file: { path: string; content: string }): Promise<CodeChunk[]> {
  const { language, grammar } = detectLanguage(file.path);
  const lines = splitLines(file.content);
  const context = { path: file.path, language, lines };
  if (lines.length === 0) return [];
  if (!grammar) return windowChunks(context);
  let pieces: SyntaxPiece[] | undefined;
  try {
    pieces = await syntaxPieces(grammar, file.content, lines);
  } catch (error) {
    getLogger().warn(
      { err: error, path: file.path, grammar },
      "index chunker: parse failed, using text windows",
    );
    return windowChunks(context);
  }
  if (!pieces) {
    getLogger().debug({ path: file.path, grammar }, "index chunker: unparsable file, using text windows");
    return windowChunks(context);
  }
  return pieces.flatMap((piece) => splitPiece(piece, context));
}

/**
 * The file's pieces; a file without units is one `module` piece (a script), unless its parse
 * had errors (`undefined`: the caller uses windows, as for a grammar the file is not really in).
 */
async function syntaxPieces(
  grammar: GrammarName,
  content: string,
  lines: readonly string[],
): Promise<SyntaxPiece[] | undefined> {
  const parser = await getParser(grammar);
  const tree = parser.parse(content);
  if (!tree) throw new Error("tree-sitter returned no tree");
  try {
    const items = extractSyntaxItems(tree.rootNode, RULES_BY_GRAMMAR[grammar], lines);
    const pieces = assemblePieces(items, lines);
    if (pieces) return pieces;
    if (tree.rootNode.hasError) return undefined;
    const whole = trimBlankRows(lines, 0, lines.length - 1);
    return whole ? [{ ...whole, kind: "module", symbol: undefined }] : [];
  } finally {
    tree.delete();
  }
}

/** Lines without their `\n` (or `\r\n`); a final newline does not start another line. */
function splitLines(content: string): string[] {
  if (content === "") return [];
  const lines = content.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}
