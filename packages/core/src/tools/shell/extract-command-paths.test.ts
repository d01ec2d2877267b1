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
    ["curl https://example.com $USER/x", []],
  ])("%s", (command, expected) => {
    expect(extractCommandPaths(command, { home: "/home/me" })).toEqual(expected);
  });

  it.each([
    ["cat ~/.ssh/id_rsa", ["/home/me/.ssh/id_rsa"]],
    ["cat ~", ["/home/me"]],
    ['cat "$HOME/.ssh/id_rsa"', ["/home/me/.ssh/id_rsa"]],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    ["cat ${HOME}/.ssh/id_rsa", ["/home/me/.ssh/id_rsa"]],
    ["cat <~/.aws/credentials", ["/home/me/.aws/credentials"]],
    ["ls ~/x;cat ~/y", ["/home/me/x", "/home/me/y"]],
    // Where the shell does not expand: quoted tilde, single quotes, another variable, ~user, mid-word.
    ["cat '~/.ssh/id_rsa' '$HOME/x' $HOMER/x ~root/x a~/b", ["~/.ssh/id_rsa", "~root/x", "a~/b"]],
  ])("expands the home directory like the shell: %s", (command, expected) => {
    expect(extractCommandPaths(command, { home: "/home/me" }).map((use) => use.path)).toEqual(expected);
  });
});
