// The third-party code bases of the retrieval bench: fetched from the registries these machines
// reach (npm with `npm pack`, Debian with `apt-get download`), checked against the pinned
// checksum, unpacked, and copied into one project folder each with their doc comments stripped
// (many queries are doc comments rewritten as questions, so their words must not simply match).
// Nothing here is committed: everything lands in bench/retrieval/.cache/ (git-ignored).
//   node bench/retrieval/corpora.mjs     fetch and prepare every code base (skips what is there)
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseSource } from "../../packages/index/dist/index.js";

export const CACHE = fileURLToPath(new URL("./.cache/", import.meta.url));

/**
 * Each code base: where it comes from (pinned version and checksum), the folder inside the
 * archive that is its source tree, and which of its files a repository would hold (a published
 * package also carries build output, which a clone would not: `dist/` is left out).
 */
export const CORPORA = [
  {
    id: "requests",
    language: "python",
    source: { registry: "debian", name: "python3-requests", version: "2.28.1+dfsg-1" },
    sha256: "c75b5c05d8d4a813bd83c3d432ffe65a2ca13e771bc91d4b9787690097598603",
    root: "usr/lib/python3/dist-packages/requests",
    include: (path) => path.endsWith(".py"),
  },
  {
    id: "click",
    language: "python",
    source: { registry: "debian", name: "python3-click", version: "8.1.3-2" },
    sha256: "c3af7e231d711f7fdb9a2fac4954061fe423ea517279bc30bf95a0920738279b",
    root: "usr/lib/python3/dist-packages/click",
    include: (path) => path.endsWith(".py"),
  },
  {
    id: "axios",
    language: "javascript",
    source: { registry: "npm", name: "axios", version: "1.7.9" },
    integrity:
      "sha512-LhLcE7Hbiryz8oMDdDptSrWowmB4Bl6RCt6sIJKpRB4XtVf0iEgewX3au/pJqm+Py1kCASkb/FFKjxQaLtxJvw==",
    root: "package",
    include: (path) => !path.startsWith("dist/"),
  },
  {
    id: "commander",
    language: "javascript",
    source: { registry: "npm", name: "commander", version: "12.1.0" },
    integrity:
      "sha512-Vw8qHK3bZM9y/P10u3Vib8o/DdkvA2OtPtZvD871QKjy74Wj1WSKFILMPRPSdUSx5RFK1arlJzEtA4PkFgnbuA==",
    root: "package",
    include: () => true,
  },
];

function checksum(file, algorithm, encoding) {
  return createHash(algorithm).update(readFileSync(file)).digest(encoding);
}

/** Downloads the archive of `corpus` into the cache (once) and returns its path, checksum checked. */
function fetchArchive(corpus) {
  const folder = join(CACHE, "archives");
  mkdirSync(folder, { recursive: true });
  const { registry, name, version } = corpus.source;
  const file =
    registry === "npm"
      ? join(folder, `${name}-${version}.tgz`)
      : join(folder, `${name}_${version.replace(/^\d+:/, "")}_all.deb`);
  if (!existsSync(file)) {
    if (registry === "npm") {
      execFileSync("npm", ["pack", `${name}@${version}`, "--pack-destination", folder, "--silent"], {
        stdio: ["ignore", "ignore", "inherit"],
      });
    } else {
      execFileSync("apt-get", ["download", `${name}=${version}`], {
        cwd: folder,
        stdio: ["ignore", "ignore", "pipe"],
      });
    }
  }
  const ok = corpus.integrity
    ? `sha512-${checksum(file, "sha512", "base64")}` === corpus.integrity
    : checksum(file, "sha256", "hex") === corpus.sha256;
  if (!ok) {
    rmSync(file, { force: true });
    throw new Error(
      `${file}: checksum does not match the pinned one in bench/retrieval/corpora.mjs (deleted).`,
    );
  }
  return file;
}

function listFiles(folder, base = folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return listFiles(path, base);
    return entry.isFile() ? [relative(base, path)] : [];
  });
}

/**
 * The text with its doc comments taken out: Python docstrings (the first string statement of a
 * module, class or function, replaced by `...` so the body stays valid) and JavaScript/TypeScript
 * `/** … *\/` blocks. Line comments stay: they are not what queries were made from.
 */
export async function stripDocComments(path, content) {
  const ranges =
    (await parseSource({ path, content }, (root) => {
      const found = [];
      if (path.endsWith(".py")) {
        for (const node of [root, ...root.descendantsOfType("block")]) {
          const first = node.namedChildren[0];
          const string = first?.type === "expression_statement" ? first.namedChildren[0] : undefined;
          if (string?.type === "string")
            found.push({ start: string.startIndex, end: string.endIndex, with: "..." });
        }
      } else {
        for (const node of root.descendantsOfType("comment")) {
          if (node.text.startsWith("/**"))
            found.push({ start: node.startIndex, end: node.endIndex, with: "" });
        }
      }
      return found;
    })) ?? [];
  let text = content;
  for (const range of ranges.sort((left, right) => right.start - left.start)) {
    text = text.slice(0, range.start) + range.with + text.slice(range.end);
  }
  return text;
}

/** Fetches and prepares one code base; returns the project folder to index. */
export async function prepareCorpus(corpus) {
  const project = join(CACHE, "projects", corpus.id);
  const stamp = `${project}.prepared`;
  const version = `${corpus.source.name}@${corpus.source.version} strip-v1`;
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === version) return project;
  const archive = fetchArchive(corpus);
  const unpacked = join(CACHE, "unpacked", corpus.id);
  rmSync(unpacked, { recursive: true, force: true });
  mkdirSync(unpacked, { recursive: true });
  if (archive.endsWith(".tgz")) execFileSync("tar", ["xzf", archive, "-C", unpacked]);
  else execFileSync("dpkg-deb", ["-x", archive, unpacked]);
  const sourceRoot = join(unpacked, corpus.root);
  rmSync(project, { recursive: true, force: true });
  for (const path of listFiles(sourceRoot).filter(corpus.include).sort()) {
    const from = join(sourceRoot, path);
    if (statSync(from).size > 1 << 20) continue;
    const content = readFileSync(from, "utf8");
    const to = join(project, path);
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, await stripDocComments(path, content));
  }
  writeFileSync(stamp, version);
  return project;
}

export async function prepareAll() {
  const projects = {};
  for (const corpus of CORPORA) projects[corpus.id] = await prepareCorpus(corpus);
  return projects;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const projects = await prepareAll();
  for (const [id, folder] of Object.entries(projects)) console.log(`${id}: ${folder}`);
}
