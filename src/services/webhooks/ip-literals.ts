/**
 * What an IP literal reaches, for the webhook URL guard. The blocks come from IANA's
 * registries, read 2026-11:
 * - IPv4 Special-Purpose Address Registry
 *   https://www.iana.org/assignments/iana-ipv4-special-registry/ (RFC 6890 and updates),
 *   plus multicast 224.0.0.0/4 from the IPv4 Multicast Address Space Registry;
 * - IPv6 Special-Purpose Address Registry
 *   https://www.iana.org/assignments/iana-ipv6-special-registry/;
 * - IPv6 Address Space https://www.iana.org/assignments/ipv6-address-space/: only
 *   2000::/3 is global unicast; everything else (::/8 with the IPv4-compatible and
 *   -mapped forms, 64:ff9b::/96 and 64:ff9b:1::/48 NAT64, 100::/64 discard, fc00::/7 unique
 *   local, fe80::/10 link-local, fec0::/10 site-local, ff00::/8 multicast) is refused whole.
 * Every block is refused whether or not the registry calls it globally reachable: no
 * webhook receiver lives in an anycast or protocol block, and a refusal there costs nothing.
 */
export type AddressClass = "public" | "loopback" | "special";

/** Dotted-decimal IPv4 (what the URL parser leaves of every IPv4 spelling); null otherwise. */
export function parseIpv4(text: string): number[] | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!match) return null;
  const octets = match.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

function groupsOf(part: string): number[] | null {
  if (part === "") return [];
  const groups = part.split(":").map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN));
  return groups.some(Number.isNaN) ? null : groups;
}

/**
 * An IPv6 literal (no brackets) as eight 16-bit groups, in any spelling: compressed or
 * expanded, any case, zero-padded groups, a dotted IPv4 tail, a zone id (`%eth0`, ignored).
 * Null when malformed.
 */
export function parseIpv6(text: string): number[] | null {
  let host = text.replace(/%.*$/s, "");
  const tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/s.exec(host);
  if (dotted) {
    const octets = parseIpv4(dotted[2] ?? "");
    if (!octets) return null;
    const [a = 0, b = 0, c = 0, d = 0] = octets;
    tail.push((a << 8) | b, (c << 8) | d);
    // Keeps the colon before the tail when it ends a `::`.
    host = (dotted[1] ?? "").endsWith("::") ? (dotted[1] ?? "") : (dotted[1] ?? "").slice(0, -1);
  }
  const halves = host.split("::");
  if (halves.length > 2) return null;
  const head = groupsOf(halves[0] ?? "");
  const rest = groupsOf(halves[1] ?? "");
  if (!head || !rest) return null;
  const written = [...head, ...rest, ...tail];
  if (halves.length === 1) return written.length === 8 ? written : null;
  const fill = 8 - written.length;
  if (fill < 1) return null;
  return [...head, ...new Array<number>(fill).fill(0), ...rest, ...tail];
}

function ipv4Number(octets: readonly number[]): number {
  return octets.reduce((n, octet) => n * 256 + octet, 0);
}

/** IPv4 blocks a webhook must never reach: the special-purpose registry and multicast. */
const IPV4_REFUSED: [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private use
  ["100.64.0.0", 10], // shared address space (CGNAT)
  ["169.254.0.0", 16], // link local, cloud metadata
  ["172.16.0.0", 12], // private use
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.31.196.0", 24], // AS112-v4
  ["192.52.193.0", 24], // AMT
  ["192.88.99.0", 24], // deprecated 6to4 relay anycast
  ["192.168.0.0", 16], // private use
  ["192.175.48.0", 24], // direct delegation AS112
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, limited broadcast
];

const IPV4_BLOCKS = IPV4_REFUSED.map(([prefix, bits]) => {
  const size = 2 ** (32 - bits);
  const start = ipv4Number(parseIpv4(prefix) ?? []);
  return { start, end: start + size };
});

/** What an IPv4 address reaches: 127.0.0.0/8 is loopback, the refused blocks special. */
export function classifyIpv4(octets: readonly number[]): AddressClass {
  if (octets[0] === 127) return "loopback";
  const n = ipv4Number(octets);
  return IPV4_BLOCKS.some((b) => n >= b.start && n < b.end) ? "special" : "public";
}

function inBlock(groups: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let i = 0, left = bits; left > 0; i++, left -= 16) {
    const mask = (0xffff << (16 - Math.min(16, left))) & 0xffff;
    if (((groups[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function block(prefix: string, bits: number) {
  const groups = parseIpv6(prefix);
  if (!groups) throw new Error(`not an IPv6 prefix: ${prefix}`);
  return { groups, bits };
}

const GLOBAL_UNICAST = block("2000::", 3);
/** IPv4 forms judged as the IPv4 address they carry: ::ffff:0:0/96 and ::ffff:0:0:0/96. */
const CARRIES_IPV4 = [block("::ffff:0:0", 96), block("::ffff:0:0:0", 96)];
/** Special blocks inside 2000::/3. */
const IPV6_REFUSED = [
  block("2001::", 23), // IETF protocol assignments: Teredo 2001::/32, benchmarking, ORCHID…
  block("2001:db8::", 32), // documentation
  block("2002::", 16), // 6to4: reaches whatever IPv4 address it carries
  block("3fff::", 20), // documentation
  block("5f00::", 16), // segment routing SIDs
];

/**
 * What an IPv6 address reaches: ::1 is loopback; the IPv4-mapped and -translated forms are
 * judged by their IPv4 address; anything outside global unicast, or in one of its special
 * blocks, is special.
 */
export function classifyIpv6(groups: readonly number[]): AddressClass {
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return "loopback";
  if (CARRIES_IPV4.some((b) => inBlock(groups, b.groups, b.bits))) {
    const [high = 0, low = 0] = groups.slice(6);
    return classifyIpv4([high >> 8, high & 255, low >> 8, low & 255]);
  }
  if (!inBlock(groups, GLOBAL_UNICAST.groups, GLOBAL_UNICAST.bits)) return "special";
  return IPV6_REFUSED.some((b) => inBlock(groups, b.groups, b.bits)) ? "special" : "public";
}
