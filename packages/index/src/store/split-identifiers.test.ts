import { describe, expect, it } from "vitest";
import { abbreviationWords, pathWords, splitIdentifier, splitIdentifiersIn } from "./split-identifiers.js";

describe("splitIdentifier", () => {
  it("splits camelCase, PascalCase, snake_case, SCREAMING_CASE and acronyms", () => {
    expect(splitIdentifier("parseConfigFile")).toEqual(["parse", "config", "file"]);
    expect(splitIdentifier("ParseConfigFile")).toEqual(["parse", "config", "file"]);
    expect(splitIdentifier("parse_config_file")).toEqual(["parse", "config", "file"]);
    expect(splitIdentifier("MAX_FILE_BYTES")).toEqual(["max", "file", "bytes"]);
    expect(splitIdentifier("HTTPServer")).toEqual(["http", "server"]);
    expect(splitIdentifier("getURLForPath")).toEqual(["get", "url", "for", "path"]);
    expect(splitIdentifier("utf8Decode")).toEqual(["utf8", "decode"]);
    expect(splitIdentifier("__private_name")).toEqual(["private", "name"]);
    expect(splitIdentifier("$store")).toEqual(["store"]);
    expect(splitIdentifier("walker")).toEqual(["walker"]);
  });
});

describe("splitIdentifiersIn", () => {
  it("lists each compound identifier once, and leaves plain words out", () => {
    const code = "function parseConfigFile(path) { return read_config(path) + parseConfigFile; }";
    expect(splitIdentifiersIn(code)).toEqual(["parse config file", "read config"]);
  });
});

describe("pathWords", () => {
  it("splits a path into words", () => {
    expect(pathWords("src/walker/walkProject.ts")).toBe("src walker walk project ts");
    expect(pathWords("packages/index/src/store/split-identifiers.ts")).toBe(
      "packages index src store split identifiers ts",
    );
  });
});

describe("abbreviationWords", () => {
  it("gives the words that common abbreviations stand for, each once", () => {
    expect(abbreviationWords(["split", "envvar", "value", "cfg", "cfg", "ctx"])).toBe(
      "environment variable config configuration context",
    );
    expect(abbreviationWords(["plain", "words"])).toBe("");
  });
});
