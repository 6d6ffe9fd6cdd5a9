/** What a deployment allows as a webhook URL. */
export interface UrlPolicy {
  /** Local development: `http` (and https) to loopback addresses is allowed. */
  allowLoopbackHttp: boolean;
}

/** Why a URL is refused, in words a user can act on; null when it is acceptable. */
export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata", "instance-data"]);

function ipv4Octets(host: string): number[] | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!match) return null;
  const octets = match.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

/** Special-use IPv4 ranges a webhook must never reach (RFC 6890 and the metadata address). */
function ipv4Class(o: number[]): "loopback" | "private" | null {
  const [a = 0, b = 0] = o;
  if (a === 127) return "loopback";
  if (
    a === 0 || // "this network"
    a === 10 ||
    (a === 100 && b >= 64 && b <= 127) || // CGNAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && (o[2] === 0 || o[2] === 2)) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  ) {
    return "private";
  }
  return null;
}

/** Expands an IPv6 literal (no brackets) into eight 16-bit groups; null when malformed. */
function ipv6Groups(text: string): number[] | null {
  let host = text;
  const tail: number[] = [];
  const v4 = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (v4) {
    const octets = ipv4Octets(v4[2] ?? "");
    if (!octets) return null;
    host = `${v4[1]}0:0`;
    tail.push(
      ((octets[0] ?? 0) << 8) | (octets[1] ?? 0),
      ((octets[2] ?? 0) << 8) | (octets[3] ?? 0),
    );
  }
  const halves = host.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) =>
    part
      ? part
          .split(":")
          .map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? Number.parseInt(g, 16) : Number.NaN))
      : [];
  const head = parse(halves[0]);
  const rest = parse(halves[1]);
  const fill = halves.length === 2 ? 8 - head.length - rest.length : 0;
  const groups = [...head, ...new Array<number>(Math.max(fill, 0)).fill(0), ...rest];
  if (groups.length !== 8 || groups.some(Number.isNaN)) return null;
  if (tail.length === 2) groups.splice(6, 2, ...tail);
  return groups;
}

function ipv6Class(g: number[]): "loopback" | "private" | null {
  const [first = 0] = g;
  const zeroPrefix = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroPrefix(7) && g[7] === 1) return "loopback";
  if (zeroPrefix(8)) return "private";
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): judge the IPv4 address.
  if (zeroPrefix(5) && (g[5] === 0xffff || g[5] === 0)) {
    const octets = [(g[6] ?? 0) >> 8, (g[6] ?? 0) & 255, (g[7] ?? 0) >> 8, (g[7] ?? 0) & 255];
    return ipv4Class(octets) ?? "private";
  }
  if (first === 0x64 && g[1] === 0xff9b) return "private"; // NAT64 reaches IPv4 space
  if ((first & 0xfe00) === 0xfc00) return "private"; // unique local
  if ((first & 0xffc0) === 0xfe80) return "private"; // link-local
  if ((first & 0xff00) === 0xff00) return "private"; // multicast
  if (first === 0x2001 && g[1] === 0x0db8) return "private"; // documentation
  return null;
}

function hostClass(hostname: string): "loopback" | "private" | null {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  if (METADATA_HOSTS.has(host) || host.endsWith(".internal")) return "private";
  if (host.startsWith("[") && host.endsWith("]")) {
    const groups = ipv6Groups(host.slice(1, -1));
    return groups ? ipv6Class(groups) : "private";
  }
  const octets = ipv4Octets(host);
  if (octets) return ipv4Class(octets);
  // The URL parser turns every IPv4 spelling (decimal, hex, octal, short) into dotted form;
  // a purely numeric host left over is malformed, so refuse it rather than guess.
  if (/^[0-9.]+$/.test(host) || /^0x/i.test(host)) return "private";
  return null;
}

/**
 * Checks a webhook URL: https only (http to loopback where the deployment allows it), no
 * credentials, no private, loopback, link-local, CGNAT, unique-local or metadata address in
 * any spelling. Hostnames are not resolved: Workers cannot reach private networks through
 * `fetch`, and a name's address can change after the check anyway.
 */
export function checkWebhookUrl(raw: string, policy: UrlPolicy): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "is not an absolute URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, reason: "must use https" };
  }
  if (url.username !== "" || url.password !== "") {
    return { ok: false, reason: "must not contain credentials" };
  }
  const kind = hostClass(url.hostname);
  if (kind === "private") {
    return { ok: false, reason: "must not point at a private, reserved or metadata address" };
  }
  if (kind === "loopback") {
    return policy.allowLoopbackHttp
      ? { ok: true, url }
      : { ok: false, reason: "must not point at a loopback address" };
  }
  if (url.protocol !== "https:") return { ok: false, reason: "must use https" };
  return { ok: true, url };
}
