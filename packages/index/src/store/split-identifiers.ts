const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;
/** Word boundaries inside an identifier: `aB`, the `P` of `HTTPParser`, `_`, `$`. */
const BOUNDARY = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|[_$]+/;

/**
 * The words of one identifier, lower-cased: `parseConfigFile` → `parse config file`,
 * `MAX_FILE_BYTES` → `max file bytes`, `HTTPServer` → `http server`. Digits stay with their
 * letters (`utf8Decode` → `utf8 decode`). One word (or none) when it does not split.
 */
export function splitIdentifier(identifier: string): string[] {
  return identifier
    .split(BOUNDARY)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/**
 * The words of every compound identifier in `text`, each compound once, in order of first
 * appearance: what the full-text index gets beside the code so that `parse config` finds
 * `parseConfigFile` (the tokenizer alone keeps it as the single token `parseconfigfile`).
 */
export function splitIdentifiersIn(text: string): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const match of text.matchAll(IDENTIFIER)) {
    const identifier = match[0];
    if (seen.has(identifier)) continue;
    seen.add(identifier);
    const parts = splitIdentifier(identifier);
    if (parts.length > 1) words.push(parts.join(" "));
  }
  return words;
}

/** Words of a path: `src/walker/walk-project.ts` → `src walker walk project ts`. */
export function pathWords(path: string): string {
  return path
    .split(/[^A-Za-z0-9]+/)
    .flatMap((part) => splitIdentifier(part))
    .join(" ");
}

/**
 * Abbreviations common in code across languages, and the words they stand for. The full-text
 * column of a chunk gets the words of the abbreviations its identifiers use (`cfg` → `config`,
 * `envvar` → `environment variable`), and a query gets them too, so a question in plain words
 * finds code written in short names and the other way round. A general list, not one made from
 * bench/retrieval's answers (whose held-out code base checks that it does not only fit those).
 */
export const ABBREVIATIONS: Readonly<Record<string, string>> = {
  addr: "address",
  alloc: "allocate",
  arg: "argument",
  args: "arguments",
  attr: "attribute",
  attrs: "attributes",
  auth: "authentication authorization",
  buf: "buffer",
  cb: "callback",
  cfg: "config configuration",
  char: "character",
  cmd: "command",
  cnt: "count",
  conf: "config configuration",
  config: "configuration",
  conn: "connection",
  ctx: "context",
  cur: "current",
  db: "database",
  decl: "declaration",
  def: "define definition",
  del: "delete",
  desc: "description",
  dest: "destination",
  dir: "directory",
  dirs: "directories",
  doc: "document",
  dst: "destination",
  elem: "element",
  env: "environment",
  envvar: "environment variable",
  err: "error",
  exc: "exception",
  exe: "executable",
  expr: "expression",
  ext: "extension",
  fd: "file descriptor",
  fmt: "format",
  fn: "function",
  func: "function",
  hdr: "header",
  idx: "index",
  impl: "implementation",
  init: "initialize",
  len: "length",
  lib: "library",
  ln: "line",
  max: "maximum",
  min: "minimum",
  mod: "module",
  msg: "message",
  num: "number",
  obj: "object",
  opt: "option",
  opts: "options",
  param: "parameter",
  params: "parameters",
  pos: "position",
  prev: "previous",
  proc: "process",
  prog: "program",
  prop: "property",
  props: "properties",
  ptr: "pointer",
  pwd: "password",
  ref: "reference",
  regex: "regular expression",
  repo: "repository",
  req: "request",
  res: "response result",
  resp: "response",
  ret: "return",
  sep: "separator",
  src: "source",
  str: "string",
  sync: "synchronize",
  sys: "system",
  temp: "temporary",
  tmp: "temporary",
  tok: "token",
  util: "utility",
  utils: "utilities",
  val: "value",
  var: "variable",
  vars: "variables",
};

/** The expansions of the abbreviations among `words` (lower-case), each once, as one string. */
export function abbreviationWords(words: Iterable<string>): string {
  const seen = new Set<string>();
  const expanded: string[] = [];
  for (const word of words) {
    const expansion = ABBREVIATIONS[word];
    if (expansion === undefined || seen.has(word)) continue;
    seen.add(word);
    expanded.push(expansion);
  }
  return expanded.join(" ");
}
