/** The wasm grammars of `@vscode/tree-sitter-wasm` the chunker uses (`tree-sitter-<name>.wasm`). */
export type GrammarName =
  | "typescript"
  | "tsx"
  | "javascript"
  | "python"
  | "go"
  | "rust"
  | "java"
  | "cpp"
  | "c-sharp"
  | "ruby";

export interface LanguageInfo {
  /** The chunk's `language` (what `--lang` filters on). */
  language: string;
  /** The grammar that parses it; none means text windows. */
  grammar: GrammarName | undefined;
}

const SYNTAX_LANGUAGES: Record<string, LanguageInfo> = {};
for (const [extensions, language, grammar] of [
  ["ts mts cts", "typescript", "typescript"],
  ["tsx", "tsx", "tsx"],
  ["js jsx mjs cjs", "javascript", "javascript"],
  ["py pyi", "python", "python"],
  ["go", "go", "go"],
  ["rs", "rust", "rust"],
  ["java", "java", "java"],
  // @vscode/tree-sitter-wasm ships no C grammar; C parses with the C++ grammar (a superset for
  // the declarations the chunker looks at). `.h` is labelled C whichever it holds.
  ["c h", "c", "cpp"],
  ["cc cpp cxx c++ hh hpp hxx h++ ipp", "cpp", "cpp"],
  ["cs", "csharp", "c-sharp"],
  ["rb rake gemspec", "ruby", "ruby"],
] as const) {
  for (const extension of extensions.split(" ")) SYNTAX_LANGUAGES[extension] = { language, grammar };
}

/** Languages without a grammar here: chunked in windows, but labelled for the language filter. */
const TEXT_LANGUAGES: Record<string, string> = {};
for (const [extensions, language] of [
  ["md markdown mdx", "markdown"],
  ["json jsonc json5", "json"],
  ["yaml yml", "yaml"],
  ["toml", "toml"],
  ["xml xsd svg", "xml"],
  ["html htm", "html"],
  ["css scss sass less", "css"],
  ["sh bash zsh fish", "shell"],
  ["ps1 psm1", "powershell"],
  ["sql", "sql"],
  ["php", "php"],
  ["kt kts", "kotlin"],
  ["swift", "swift"],
  ["scala sc", "scala"],
  ["lua", "lua"],
  ["ex exs", "elixir"],
  ["erl hrl", "erlang"],
  ["hs", "haskell"],
  ["ml mli", "ocaml"],
  ["clj cljs cljc edn", "clojure"],
  ["dart", "dart"],
  ["r", "r"],
  ["pl pm", "perl"],
  ["proto", "protobuf"],
  ["graphql gql", "graphql"],
  ["vue", "vue"],
  ["svelte", "svelte"],
  ["tf hcl", "hcl"],
  ["ini cfg conf", "ini"],
] as const) {
  for (const extension of extensions.split(" ")) TEXT_LANGUAGES[extension] = language;
}

const FILE_NAMES: Record<string, string> = {
  dockerfile: "dockerfile",
  makefile: "makefile",
  gnumakefile: "makefile",
  gemfile: "ruby",
  rakefile: "ruby",
};

/**
 * The language of a file from its extension (case-insensitive), or from a few well-known
 * names (`Dockerfile`, `Makefile`). Unknown files are `text`.
 */
export function detectLanguage(path: string): LanguageInfo {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 ? name.slice(dot + 1) : "";
  const syntax = SYNTAX_LANGUAGES[extension];
  if (syntax) return syntax;
  return { language: TEXT_LANGUAGES[extension] ?? FILE_NAMES[name] ?? "text", grammar: undefined };
}
