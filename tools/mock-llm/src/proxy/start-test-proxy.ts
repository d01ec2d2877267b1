import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import { connect, type Socket } from "node:net";
import type { Duplex } from "node:stream";

/** One request that went through the proxy. */
export type ProxiedRequest =
  /** A tunnel: `CONNECT host:port` (https targets, and undici's fetch for http ones too). */
  | { kind: "connect"; target: string; proxyAuthorization?: string }
  /** A plain-HTTP request sent to the proxy with an absolute URI (`GET http://host/path`). */
  | { kind: "http"; method: string; url: string; proxyAuthorization?: string };

export interface TestProxy {
  /** `http://127.0.0.1:<port>`: the value for `HTTPS_PROXY` / `HTTP_PROXY`. */
  url: string;
  /** Everything that went through, in arrival order. */
  requests: ProxiedRequest[];
  /** TCP connections clients opened to the proxy so far (keep-alive reuses one). */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A forwarding HTTP proxy on 127.0.0.1 for tests of proxy support: it tunnels `CONNECT` requests
 * (TLS stays end to end) and forwards absolute-URI requests, recording each. It goes wherever it
 * is asked, so it only ever listens on loopback.
 */
export async function startTestProxy(): Promise<TestProxy> {
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Duplex>();
  let connections = 0;
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };
  const server = createServer((incoming, outgoing) => {
    let target: URL;
    try {
      target = new URL(incoming.url ?? "");
    } catch {
      outgoing.writeHead(400).end("absolute URI required");
      return;
    }
    requests.push({ kind: "http", method: incoming.method ?? "GET", url: target.href, ...auth(incoming) });
    const headers = { ...incoming.headers };
    delete headers["proxy-authorization"];
    delete headers["proxy-connection"];
    const upstream = httpRequest(target, { method: incoming.method, headers }, (response) => {
      outgoing.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(outgoing);
    });
    upstream.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  });
  server.on("connection", (socket: Socket) => {
    connections++;
    track(socket);
  });
  server.on("connect", (incoming: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    const target = incoming.url ?? "";
    requests.push({ kind: "connect", target, ...auth(incoming) });
    const separator = target.lastIndexOf(":");
    const host = target.slice(0, separator).replace(/^\[|\]$/g, "");
    const upstream: Socket = connect(Number(target.slice(separator + 1)), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.on("error", () => {
      if (client.writable) client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
    });
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function auth(incoming: IncomingMessage): { proxyAuthorization?: string } {
  const value = incoming.headers["proxy-authorization"];
  return value === undefined ? {} : { proxyAuthorization: value };
}
