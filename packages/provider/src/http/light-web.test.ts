import { describe, expect, it } from "vitest";
import { LightHeaders } from "./light-headers.js";
import { LightResponse } from "./light-response.js";
import { webGlobalStub } from "./web-global-stub.js";

type HeadersClass = new (init?: ConstructorParameters<typeof Headers>[0]) => Headers;

/** Runs the same script on Node's Headers and on LightHeaders; returns what each observed. */
function observe(Class: HeadersClass, script: (headers: Headers) => unknown[]): unknown[] {
  const log: unknown[] = [];
  const attempt = (step: () => unknown) => {
    try {
      log.push(step());
    } catch (error) {
      log.push(`${(error as Error).constructor.name}`);
    }
  };
  const headers = new Class({ "Content-Type": "text/plain", "X-Two": " padded\t" });
  for (const step of script(headers)) attempt(step as () => unknown);
  attempt(() => [...headers]);
  attempt(() => [...headers.keys()]);
  attempt(() => [...headers.values()]);
  attempt(() => {
    const seen: string[] = [];
    headers.forEach((value, name, parent) => {
      seen.push(`${name}=${value}:${parent === headers}`);
    });
    return seen;
  });
  return log;
}

const SCRIPT = (headers: Headers) => [
  () => headers.get("content-type"),
  () => headers.get("x-two"),
  () => headers.append("X-Multi", "a"),
  () => headers.append("x-multi", "b"),
  () => headers.get("X-MULTI"),
  () => headers.append("Set-Cookie", "a=1"),
  () => headers.append("set-cookie", "b=2"),
  () => headers.getSetCookie(),
  () => headers.get("set-cookie"),
  () => headers.has("x-multi"),
  () => headers.set("x-multi", "c"),
  () => headers.get("x-multi"),
  () => headers.delete("X-Two"),
  () => headers.has("x-two"),
  () => headers.get("absent"),
  () => headers.append("bad name", "x"),
  () => headers.append("x-bad", "a\nb"),
  () => headers.append("x-bad", "a\0b"),
  () => headers.append("x-wide", "€"),
  () => headers.append("x-latin", "é"),
  () => headers.append("", "x"),
  () => headers.set("Zeta", "last"),
  () => headers.set("alpha", "first"),
  () => Object.prototype.toString.call(headers),
];

describe("LightHeaders", () => {
  it("behaves as Node's Headers for the same calls", () => {
    expect(observe(LightHeaders, SCRIPT)).toEqual(observe(Headers, SCRIPT));
  });

  it("is built from records, pairs and other Headers as Node's is, and refuses bad init the same way", () => {
    const inits: unknown[] = [
      [
        ["a", "1"],
        ["A", "2"],
      ],
      new Headers({ b: "3" }),
      new LightHeaders({ c: "4" }),
      { d: "5" },
      [["too", "many", "values"]],
      "text",
      null,
      ["ab"],
    ];
    for (const init of inits) {
      const run = (Class: HeadersClass) => {
        try {
          return [...new Class(init as ConstructorParameters<typeof Headers>[0])];
        } catch (error) {
          return (error as Error).constructor.name;
        }
      };
      expect(run(LightHeaders)).toEqual(run(Headers));
    }
  });

  it("counts Node's Headers and its own as instances (what `instanceof Headers` means where it is injected)", () => {
    expect(new LightHeaders()).toBeInstanceOf(LightHeaders);
    expect(new Headers()).toBeInstanceOf(LightHeaders);
    expect({}).not.toBeInstanceOf(LightHeaders);
  });
});

function streamOf(...texts: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const text of texts) controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });
}

const init = (status = 200) => ({
  status,
  statusText: "OK",
  headers: new LightHeaders({ "content-type": "application/json" }),
  url: "http://example.test/x",
  redirected: false,
});

describe("LightResponse", () => {
  it("reads its body once, as text, JSON, bytes or a blob, as Response does", async () => {
    const response = new LightResponse(streamOf('\uFEFF{"a":', "1}"), init());
    expect(response.ok).toBe(true);
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual({ a: 1 });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toBeInstanceOf(TypeError);

    expect(new TextDecoder().decode(await new LightResponse(streamOf("ab", "c"), init()).bytes())).toBe(
      "abc",
    );
    expect(await new LightResponse(streamOf("é"), init()).arrayBuffer()).toEqual(
      await new Response("é").arrayBuffer(),
    );
    const blob = await new LightResponse(streamOf("xyz"), init()).blob();
    expect([blob.type, await blob.text()]).toEqual(["application/json", "xyz"]);
    expect(await new LightResponse(null, init(204)).text()).toBe("");
    expect(new LightResponse(null, init(404)).ok).toBe(false);
  });

  it("marks the body used when it is read directly, and reads a null body as empty any number of times", async () => {
    const direct = new LightResponse(streamOf("x"), init());
    const reader = (direct.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    reader.releaseLock();
    expect(direct.bodyUsed).toBe(true);
    const iterated = new LightResponse(streamOf("y"), init());
    for await (const _chunk of iterated.body as ReadableStream<Uint8Array>) break;
    expect(iterated.bodyUsed).toBe(true);
    const cancelled = new LightResponse(streamOf("z"), init());
    await (cancelled.body as ReadableStream<Uint8Array>).cancel();
    expect(cancelled.bodyUsed).toBe(true);
    await expect(cancelled.text()).rejects.toBeInstanceOf(TypeError);
    const empty = new LightResponse(null, init(204));
    expect([await empty.text(), await empty.text(), empty.bodyUsed]).toEqual(["", "", false]);
    expect(await empty.clone().text()).toBe("");
    const real = new Response(null, { status: 204 });
    expect([await real.text(), await real.text(), real.bodyUsed]).toEqual(["", "", false]);
  });

  it("clones by teeing the body, and refuses to clone a used one", async () => {
    const response = new LightResponse(streamOf("same"), init());
    const copy = response.clone();
    expect(await response.text()).toBe("same");
    expect(await copy.text()).toBe("same");
    expect(copy.headers.get("content-type")).toBe("application/json");
    expect(() => response.clone()).toThrow(TypeError);
  });

  it("parses form bodies through Node's Response, and counts Node's Responses as instances", async () => {
    const form = new LightResponse(streamOf("a=1&b=2"), {
      ...init(),
      headers: new LightHeaders({ "content-type": "application/x-www-form-urlencoded" }),
    });
    expect([...(await form.formData())]).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
    expect(new LightResponse(null, init())).toBeInstanceOf(LightResponse);
    expect(new Response("x")).toBeInstanceOf(LightResponse);
  });
});

describe("webGlobalStub", () => {
  it("constructs subclasses as subclasses of the real class", async () => {
    const StubResponse = webGlobalStub("Response");
    class Named extends StubResponse {
      name(): string {
        return "named";
      }
    }
    const named = new Named("body");
    expect(named.name()).toBe("named");
    expect(await named.text()).toBe("body");
  });

  it("answers instanceof from the tag and forwards construction and statics to the real global", async () => {
    const StubResponse = webGlobalStub("Response");
    const StubFormData = webGlobalStub("FormData");
    expect(new Response("x")).toBeInstanceOf(StubResponse);
    expect(new LightResponse(null, init())).toBeInstanceOf(StubResponse);
    expect(new Headers()).not.toBeInstanceOf(StubResponse);
    const built = new StubResponse("body", { status: 201 });
    expect(built).toBeInstanceOf(Response);
    expect([built.status, await built.text()]).toEqual([201, "body"]);
    expect(await StubResponse.json({ a: 1 }).json()).toEqual({ a: 1 });
    expect(new StubFormData()).toBeInstanceOf(FormData);
    expect({}).not.toBeInstanceOf(StubFormData);
  });
});
