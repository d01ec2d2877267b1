import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * The README of each package ships to the npm registry: it is written for that package's users
 * (install, an example), its links work from the registry page (absolute), and it says nothing
 * about how this repository was planned. Contributor notes live in DEVELOPING.md (not shipped).
 */
const PACKAGES = ["config", "auth", "provider", "index", "core", "tui", "cli"];
const PLANNING_WORDS = /\bseed \d|\bspec\b|\bthe original\b|\bissue \d+|\bedges §|\bcore §/i;

describe.each(PACKAGES)("packages/%s/README.md", (name) => {
  const text = readFileSync(new URL(`../../packages/${name}/README.md`, import.meta.url), "utf8");
  const manifest = JSON.parse(
    readFileSync(new URL(`../../packages/${name}/package.json`, import.meta.url), "utf8"),
  ) as {
    name: string;
    files: string[];
  };

  it("is for the package's users: its name, how to install it, links that work from the registry", () => {
    expect(text.startsWith(`# ${manifest.name}\n`)).toBe(true);
    expect(text).toContain(`npm install ${name === "cli" ? "-g nyzhi" : manifest.name}`);
    const links = [...text.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1] ?? "");
    expect(links.filter((link) => !/^(https:\/\/|#)/.test(link))).toEqual([]);
    expect(text.match(PLANNING_WORDS)?.[0]).toBeUndefined();
  });

  it("ships with the package, DEVELOPING.md does not", () => {
    expect(manifest.files).toContain("README.md");
    expect(manifest.files).not.toContain("DEVELOPING.md");
  });
});
