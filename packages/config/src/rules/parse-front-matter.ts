import { errorMessage } from "../base/errors.js";

export type FrontMatterResult =
  | { ok: true; data: Record<string, unknown>; body: string }
  | { ok: false; reason: string };

function refuseExecutableFrontMatter(): never {
  throw new Error("JavaScript front matter is not allowed");
}

type Matter = typeof import("gray-matter");
let loading: Promise<Matter> | undefined;

/**
 * gray-matter, loaded on first use: it loads js-yaml, whose start-up (~1.5 ms, and a failed lookup of
 * its optional `esprima`) every run paid, although most runs read no file with front matter.
 */
function loadMatter(): Promise<Matter> {
  loading ??= import("gray-matter").then(
    (module) => module.default,
    (error: unknown) => {
      loading = undefined; // the next call tries again
      throw error;
    },
  );
  return loading;
}

/**
 * Splits a Markdown file into YAML front matter and body. Only YAML and JSON front matter are
 * read: gray-matter's `---js` engine evaluates code, so it is disabled (a cloned repository's
 * rule files must not run anything). A broken block, or a parser that cannot be loaded, gives
 * `{ ok: false, reason }`; it never rejects.
 */
export async function parseFrontMatter(text: string): Promise<FrontMatterResult> {
  try {
    const matter = await loadMatter();
    const parsed = matter(text, {
      engines: { js: refuseExecutableFrontMatter, javascript: refuseExecutableFrontMatter },
    });
    const data =
      parsed.data !== null && typeof parsed.data === "object" ? (parsed.data as Record<string, unknown>) : {};
    return { ok: true, data, body: parsed.content };
  } catch (error) {
    return { ok: false, reason: errorMessage(error).split("\n")[0] ?? "invalid front matter" };
  }
}
