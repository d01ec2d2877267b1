import { BlockList, isIP } from "node:net";

/**
 * Address ranges `web_fetch` refuses unless the user allows them: what a request from this machine
 * can reach but the internet cannot (the machine itself, the local network, cloud metadata
 * services). Checked first to last; the first range that holds an address names why it is refused.
 */
const BLOCKED_RANGES: ReadonlyArray<{ reason: string; v4?: string[]; v6?: string[] }> = [
  // AWS, GCP, Azure, OpenStack (169.254.169.254) and AWS over IPv6 (fd00:ec2::254).
  { reason: "a cloud metadata address", v4: ["169.254.169.254/32"], v6: ["fd00:ec2::254/128"] },
  { reason: "a loopback address", v4: ["127.0.0.0/8"], v6: ["::1/128"] },
  { reason: "an unspecified address", v4: ["0.0.0.0/8"], v6: ["::/128"] },
  { reason: "a private address", v4: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"], v6: ["fc00::/7"] },
  { reason: "a link-local address", v4: ["169.254.0.0/16"], v6: ["fe80::/10"] },
  { reason: "a carrier-grade NAT address", v4: ["100.64.0.0/10"] },
  { reason: "a multicast or broadcast address", v4: ["224.0.0.0/4", "255.255.255.255/32"], v6: ["ff00::/8"] },
  { reason: "a reserved address", v4: ["240.0.0.0/4"], v6: ["fec0::/10"] },
];

// Node's BlockList also matches IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) against IPv4 rules.
// Built on the first check, not at start-up: most runs never fetch a web page.
let lists: { reason: string; list: BlockList }[] | undefined;
const blockLists = () =>
  (lists ??= BLOCKED_RANGES.map(({ reason, v4 = [], v6 = [] }) => {
    const list = new BlockList();
    for (const range of v4) addRange(list, range, "ipv4");
    for (const range of v6) addRange(list, range, "ipv6");
    return { reason, list };
  }));

function addRange(list: BlockList, range: string, type: "ipv4" | "ipv6"): void {
  const [network, prefix] = range.split("/");
  list.addSubnet(network!, Number(prefix), type);
}

/**
 * Why `address` (an IP literal, as DNS or a URL gives it) must not be fetched, e.g. `a loopback
 * address`; undefined for a public address or a string that is not an IP. IPv6 forms that carry an
 * IPv4 address (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`) are
 * judged by the IPv4 address they carry.
 */
export function blockedAddressReason(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 0) return undefined;
  const type = family === 4 ? "ipv4" : "ipv6";
  for (const { reason, list } of blockLists()) if (list.check(bare, type)) return reason;
  const embedded = family === 6 ? embeddedIpv4(bare) : undefined;
  return embedded ? blockedAddressReason(embedded) : undefined;
}

/** The IPv4 address in the low 32 bits of an IPv4-compatible (`::/96`) or NAT64 (`64:ff9b::/96`) address. */
function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  if (!groups) return undefined;
  const high = groups.slice(0, 6);
  const compatible = high.every((group) => group === 0);
  const nat64 = high[0] === 0x64 && high[1] === 0xff9b && high.slice(2).every((group) => group === 0);
  if (!compatible && !nat64) return undefined;
  const [a, b] = [groups[6]!, groups[7]!];
  return [a >> 8, a & 0xff, b >> 8, b & 0xff].join(".");
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (part: string) =>
    part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  const groups = [...left, ...Array<number>(missing).fill(0), ...right];
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : undefined;
}
