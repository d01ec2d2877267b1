import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/** Whether the `openssl` command is installed (the TLS tests are skipped without it). */
export function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export interface TestCertificates {
  /** The test CA's certificate (PEM file): the value for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** The server's key and certificate (for `localhost` and 127.0.0.1), signed by that CA. */
  key: string;
  cert: string;
}

/** A throwaway CA and a server certificate it signed, written into `directory` with openssl. */
export function makeTestCertificates(directory: string): TestCertificates {
  const file = (name: string) => join(directory, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });
  const ecKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl(
    "req",
    "-x509",
    ...ecKey,
    "-keyout",
    file("ca.key"),
    "-out",
    file("ca.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=nyzhi test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  );
  openssl(
    "req",
    ...ecKey,
    "-keyout",
    file("server.key"),
    "-out",
    file("server.csr"),
    "-subj",
    "/CN=localhost",
  );
  writeFileSync(
    file("server.ext"),
    "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
  );
  openssl(
    "x509",
    "-req",
    "-in",
    file("server.csr"),
    "-CA",
    file("ca.pem"),
    "-CAkey",
    file("ca.key"),
    "-CAcreateserial",
    "-out",
    file("server.pem"),
    "-days",
    "2",
    "-extfile",
    file("server.ext"),
  );
  return {
    caFile: file("ca.pem"),
    key: readFileSync(file("server.key"), "utf8"),
    cert: readFileSync(file("server.pem"), "utf8"),
  };
}

export interface HttpsFront {
  /** `https://localhost:<port>`. */
  url: string;
  close(): Promise<void>;
}

/**
 * An HTTPS server on 127.0.0.1 with `certificates` that forwards every request to the plain-HTTP
 * `target` (the mock LLM), so a test can talk TLS to it. Idle connections are kept for a minute:
 * a client whose pooled socket kept its process alive would show as a hung run.
 */
export async function startHttpsFront(target: string, certificates: TestCertificates): Promise<HttpsFront> {
  const server: Server = createServer(
    { key: certificates.key, cert: certificates.cert },
    (incoming, outgoing) => {
      const forwarded = httpRequest(
        new URL(incoming.url ?? "/", target),
        { method: incoming.method, headers: { ...incoming.headers, host: new URL(target).host } },
        (response) => {
          outgoing.writeHead(response.statusCode ?? 502, response.headers);
          response.pipe(outgoing);
        },
      );
      forwarded.on("error", () => outgoing.destroy());
      incoming.pipe(forwarded);
    },
  );
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
