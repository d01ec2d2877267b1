import { describe, expect, it } from "vitest";
import { extractCommandPaths } from "./extract-command-paths.js";

describe("extractCommandPaths", () => {
  it.each([
    ["cat .env", [{ path: ".env", access: "read" }]],
    [
      "grep -r --include=*.ts TODO src",
      [
        { path: "TODO", access: "read" },
        { path: "src", access: "read" },
      ],
    ],
    [
      "echo hi > out.txt 2>/dev/null",
      [
        { path: "out.txt", access: "write" },
        { path: "hi", access: "read" },
      ],
    ],
    ["make 2>&1 | tee 'build log.txt'", [{ path: "build log.txt", access: "write" }]],
    ["FOO=1 rm -rf ../x && ls", [{ path: "../x", access: "write" }]],
    ["cat <<EOF > /etc/motd\nhi\nEOF", [{ path: "/etc/motd", access: "write" }]],
    [
      "sort < in.txt >> out.txt",
      [
        { path: "in.txt", access: "read" },
        { path: "out.txt", access: "write" },
      ],
    ],
    ["curl https://example.com $HOME/x", []],
  ])("%s", (command, expected) => {
    expect(extractCommandPaths(command)).toEqual(expected);
  });
});
