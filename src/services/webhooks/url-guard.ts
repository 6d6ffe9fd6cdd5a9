import { type AddressClass, classifyIpv4, classifyIpv6, parseIpv4, parseIpv6 } from "./ip-literals";

/** What a deployment allows as a webhook URL. */
export interface UrlPolicy {
  /** Local development: `http` (and https) to loopback addresses is allowed. */
  allowLoopbackHttp: boolean;
}

/** Why a URL is refused, in words a user can act on; null when it is acceptable. */
export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/** A URL's canonical text, or why it is refused. */
export type CanonicalVerdict = { ok: true; url: string } | { ok: false; reason: string };

const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata", "instance-data"]);

function hostClass(hostname: string): AddressClass {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  if (METADATA_HOSTS.has(host) || host.endsWith(".internal")) return "special";
  if (host.startsWith("[") && host.endsWith("]")) {
    const groups = parseIpv6(host.slice(1, -1));
    return groups ? classifyIpv6(groups) : "special";
  }
  const octets = parseIpv4(host);
  if (octets) return classifyIpv4(octets);
  // The URL parser turns every IPv4 spelling (decimal, hex, octal, short) into dotted form;
  // a purely numeric host left over is malformed, so refuse it rather than guess.
  if (/^[0-9.]+$/.test(host) || /^0x/i.test(host)) return "special";
  return "public";
}

/**
 * Checks a webhook URL: https only (http to loopback where the deployment allows it), no
 * credentials, no address of IANA's special-purpose registries (private, loopback,
 * link-local, CGNAT, unique-local, site-local, documentation, NAT64, 6to4, Teredo…) or
 * metadata name, in any spelling. Hostnames are not resolved: Workers cannot reach private
 * networks through `fetch`, and a name's address can change after the check anyway.
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
  if (kind === "special") {
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

/** C0 and C1 controls, space and any Unicode whitespace: the URL parser would drop or encode them silently. */
function hasUnsafeCharacter(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || /\s/u.test(char)) return true;
  }
  return false;
}

/**
 * Checks a URL a user sends as `checkWebhookUrl` does and answers its canonical form (the
 * URL parser's serialisation), the only form stored. Whitespace and control characters
 * anywhere (CR, LF, tab, NUL, no-break space…) are refused rather than dropped.
 */
export function canonicalWebhookUrl(raw: string, policy: UrlPolicy): CanonicalVerdict {
  if (hasUnsafeCharacter(raw)) {
    return { ok: false, reason: "must not contain whitespace or control characters" };
  }
  const verdict = checkWebhookUrl(raw, policy);
  return verdict.ok ? { ok: true, url: verdict.url.href } : verdict;
}
