import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_REDIRECTS } from "../../engines/web/guarded-get.js";
import { htmlToMarkdown } from "../../engines/web/html-to-markdown.js";
import { WEB_ACCESS_SERVICE, type WebAccessSettings } from "../../engines/web/web-access.js";
import { createPermissionPolicy } from "../../permissions/permission-policy.js";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { runTool } from "../testing/run-tool.js";
import { webFetchTool } from "./web-fetch-tool.js";

const PAGE = `<!doctype html>
<html><head><title>Docs &amp; Guides</title><style>body { color: red }</style>
<script>console.log("never shown")</script></head>
<body>
  <nav><a href="/">Home</a></nav>
  <h1>Install   the&nbsp;tool</h1>
  <p>Run <code>npm i nyzhi</code> &mdash; then &lt;configure&gt; it.</p>
  <ul><li>one</li><li>two &#x1F600;</li></ul>
  <pre>line 1
    indented &lt;b&gt;
</pre>
  <!-- a comment -->
  <p>caf&eacute; &#233;</p>
</body></html>`;

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === "/page") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(PAGE);
    } else if (request.url === "/emoji.txt") {
      response.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      response.end("😀".repeat(300));
    } else if (request.url?.startsWith("/redirect?to=")) {
      response.writeHead(302, { location: decodeURIComponent(request.url.slice("/redirect?to=".length)) });
      response.end();
    } else if (request.url?.startsWith("/loop/")) {
      const hop = Number(request.url.slice("/loop/".length));
      response.writeHead(301, { location: `/loop/${hop + 1}` });
      response.end();
    } else if (request.url === "/gzip") {
      response.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
      response.end(gzipSync("compressed text"));
    } else if (request.url === "/image") {
      response.writeHead(200, { "content-type": "image/png" });
      response.end(Buffer.from([0x89, 0x50]));
    } else {
      response.writeHead(404, { "content-type": "text/plain" });
      response.end("nope");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** The test servers listen on 127.0.0.1, which web_fetch refuses unless it is allowed. */
const ALLOW_LOOPBACK: WebAccessSettings = { allowPrivate: false, allowHosts: ["127.0.0.1"] };

let test: TestContext;
beforeEach(async () => {
  test = await createTestContext({ services: { [WEB_ACCESS_SERVICE]: ALLOW_LOOPBACK } });
});
afterEach(async () => {
  await test.cleanup();
});

describe("htmlToMarkdown", () => {
  it("keeps the readable content as Markdown and drops scripts, styles, comments and tags", async () => {
    expect(await htmlToMarkdown(PAGE, new URL("https://example.com/docs/page"))).toEqual({
      title: "Docs & Guides",
      markdown: [
        "[Home](https://example.com/)",
        "",
        "# Install the\u00a0tool",
        "",
        "Run `npm i nyzhi` — then <configure> it.",
        "",
        "-   one",
        "-   two 😀",
        "",
        "```",
        "line 1",
        "    indented <b>",
        "```",
        "",
        "café é",
      ].join("\n"),
    });
  });

  it("decodes entities as a browser does, leaving unknown ones alone", async () => {
    const page = "<p>&#65;&#x42;&unknown;&AMP;&Uuml;&ccedil;&nbsp;x</p>";
    expect((await htmlToMarkdown(page)).markdown).toBe("AB&unknown;&Üç\u00a0x");
  });

  it("makes links and images absolute, drops inline images' data and script links", async () => {
    const page = [
      '<p><a href="guide.html#install">the (guide)</a> and <a href="javascript:void(0)">menu</a></p>',
      '<p><img src="/logo.png" alt="Logo"> <img src="data:image/png;base64,AAAA" alt="inline"></p>',
    ].join("");
    expect((await htmlToMarkdown(page, new URL("https://example.com/docs/page"))).markdown).toBe(
      "[the (guide)](https://example.com/docs/guide.html#install) and menu\n\n![Logo](https://example.com/logo.png) inline",
    );
  });

  it("writes tables as GitHub Markdown tables and keeps a fence longer than the code's backticks", async () => {
    const page =
      "<table><tr><th>flag</th><th>meaning</th></tr><tr><td>-y</td><td>a | b</td></tr></table><pre>```\nx\n```</pre>";
    expect((await htmlToMarkdown(page)).markdown).toBe(
      [
        "| flag | meaning |",
        "| --- | --- |",
        "| \\-y | a \\| b |",
        "",
        "````",
        "```",
        "x",
        "```",
        "````",
      ].join("\n"),
    );
  });
});

describe("web_fetch", () => {
  it("fetches an HTML page as text with its title", async () => {
    const result = await runTool(webFetchTool, { url: `${base}/page` }, test.context);
    expect(result.isError).toBeUndefined();
    expect(result.output).toBe(
      `URL: ${base}/page\nTitle: Docs & Guides\n\n${(await htmlToMarkdown(PAGE, new URL(`${base}/page`))).markdown}`,
    );
    expect(result.output).toContain(`[Home](${base}/)`);
    expect(result.output).not.toContain("never shown");
    expect(result.metadata).toEqual({ status: 200, contentType: "text/html; charset=utf-8" });
  });

  it("truncates by code points, never splitting a character", async () => {
    const result = await runTool(webFetchTool, { url: `${base}/emoji.txt`, max_length: 100 }, test.context);
    const body = result.output.split("\n\n")[1]!;
    expect(body).toBe("😀".repeat(100));
    expect(result.output).toContain("[truncated at 100 characters]");
  });

  it("decompresses a gzip-encoded answer", async () => {
    const result = await runTool(webFetchTool, { url: `${base}/gzip` }, test.context);
    expect(result.output).toBe(`URL: ${base}/gzip\n\ncompressed text`);
  });

  it("reports a non-2xx answer with the status", async () => {
    const result = await runTool(webFetchTool, { url: `${base}/missing` }, test.context);
    expect(result).toEqual({
      output: `web_fetch could not fetch 127.0.0.1:${new URL(base).port}: the server answered HTTP 404 Not Found for ${base}/missing`,
      isError: true,
    });
  });

  it("refuses binary content", async () => {
    const result = await runTool(webFetchTool, { url: `${base}/image` }, test.context);
    expect(result).toEqual({
      output: `web_fetch got image/png from ${base}/image: binary content cannot be shown as text`,
      isError: true,
    });
  });

  it("says the host could not be reached when nothing listens", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await runTool(webFetchTool, { url: `http://127.0.0.1:${port}/` }, test.context);
    expect(result).toEqual({
      output: `web_fetch could not reach 127.0.0.1:${port}: connection refused (ECONNREFUSED) (this machine may be offline)`,
      isError: true,
    });
  });

  it("says DNS failed for a name that cannot resolve", async () => {
    const result = await runTool(webFetchTool, { url: "http://nyzhi-test.invalid/" }, test.context);
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(
      /^web_fetch could not reach nyzhi-test\.invalid: DNS lookup failed \((ENOTFOUND|EAI_AGAIN|EAI_NONAME)\) \(this machine may be offline\)$/,
    );
  }, 20_000);

  it("rejects non-http URLs before fetching", async () => {
    const result = await runTool(webFetchTool, { url: "file:///etc/passwd" }, test.context);
    expect(result).toEqual({
      output: "Invalid arguments for web_fetch:\n- url: must be an http:// or https:// URL",
      isError: true,
    });
  });

  it("is read-only but network-kind, so the permission policy asks unless trust is full", async () => {
    expect([webFetchTool.kind, webFetchTool.mutates]).toEqual(["network", false]);
    const decide = (mode: "off" | "autoedit" | "full") =>
      createPermissionPolicy({ trust: { mode }, roots: [test.cwd], cwd: test.cwd }).decide({
        tool: webFetchTool.name,
        kind: webFetchTool.kind,
        mutates: webFetchTool.mutates,
        input: { url: base },
        paths: [],
        preview: webFetchTool.previewOf({ url: base }),
      });
    expect((await decide("off")).action).toBe("ask");
    expect((await decide("autoedit")).action).toBe("ask");
    expect((await decide("full")).action).toBe("allow");
  });

  it("reports cancellation when the turn is aborted", async () => {
    test.controller.abort();
    const result = await runTool(webFetchTool, { url: `${base}/page` }, test.context);
    expect(result).toEqual({ output: "web_fetch was cancelled.", isError: true });
  });
});

describe("web_fetch address checks", () => {
  const withAccess = async (access: WebAccessSettings) =>
    (await createTestContext({ cwd: test.cwd, services: { [WEB_ACCESS_SERVICE]: access } })).context;
  const strict = () => withAccess({ allowPrivate: false, allowHosts: [] });
  const port = () => new URL(base).port;

  it("refuses a loopback IP unless the user allows it, and says how to", async () => {
    const result = await runTool(webFetchTool, { url: `${base}/page` }, await strict());
    expect(result).toEqual({
      output:
        `web_fetch refused ${base}/page: 127.0.0.1 is a loopback address. To allow it, add "127.0.0.1:${port()}" ` +
        "to web.allow_hosts (or set web.allow_private = true) in config.toml.",
      isError: true,
    });
  });

  it("refuses a name that resolves to a loopback address (checked after DNS)", async () => {
    const result = await runTool(webFetchTool, { url: `http://localhost:${port()}/page` }, await strict());
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(
      /^web_fetch refused http:\/\/localhost:\d+\/page: localhost resolves to (127\.0\.0\.1|::1), a loopback address\./,
    );
  });

  it.each([
    "http://10.1.2.3/",
    "http://172.16.0.1/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.0.1/",
    "http://0.0.0.0/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[fd00:ec2::254]/",
    "http://[fe80::1]/",
    "http://2130706433/",
  ])("refuses %s before connecting", async (url) => {
    const result = await runTool(webFetchTool, { url }, await strict());
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(
      /^web_fetch refused .* is an? (loopback|private|link-local|cloud metadata|carrier-grade NAT|unspecified) address\./,
    );
  });

  it("refuses a redirect from an allowed host to one that is not allowed", async () => {
    const other = createServer((_request, response) => response.end("internal secret"));
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const target = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;
    try {
      // Allowed: only the first server (host and port); the redirect goes to another port of 127.0.0.1.
      const context = await withAccess({ allowPrivate: false, allowHosts: [`127.0.0.1:${port()}`] });
      const start = `${base}/redirect?to=${encodeURIComponent(target)}`;
      const result = await runTool(webFetchTool, { url: start }, context);
      expect(result).toEqual({
        output:
          `web_fetch refused the redirect from ${start} to ${target}: 127.0.0.1 is a loopback address. ` +
          `To allow it, add "${new URL(target).host}" to web.allow_hosts (or set web.allow_private = true) in config.toml.`,
        isError: true,
      });
      // With both allowed, the same redirect is followed.
      const both = await withAccess({
        allowPrivate: false,
        allowHosts: [`127.0.0.1:${port()}`, new URL(target).host],
      });
      const followed = await runTool(webFetchTool, { url: start }, both);
      expect(followed.output).toBe(`URL: ${target}\n\ninternal secret`);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it("gives up after MAX_REDIRECTS redirects", async () => {
    const result = await runTool(
      webFetchTool,
      { url: `${base}/loop/0` },
      await withAccess({ allowPrivate: true, allowHosts: [] }),
    );
    expect(result).toEqual({
      output: `web_fetch gave up on ${base}/loop/0: more than ${MAX_REDIRECTS} redirects`,
      isError: true,
    });
  });

  it("allows every address with allow_private", async () => {
    const result = await runTool(
      webFetchTool,
      { url: `http://localhost:${port()}/emoji.txt` },
      await withAccess({ allowPrivate: true, allowHosts: [] }),
    );
    expect(result.isError).toBeUndefined();
  });
});
