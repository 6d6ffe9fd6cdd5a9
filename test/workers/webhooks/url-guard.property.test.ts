import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseIpv6 } from "../../../src/services/webhooks/ip-literals";
import { canonicalWebhookUrl, checkWebhookUrl } from "../../../src/services/webhooks/url-guard";

const production = { allowLoopbackHttp: false };
const local = { allowLoopbackHttp: true };

// Blocks of IANA's special-purpose registries (and everything outside 2000::/3) that a
// webhook must never reach, as prefix and length.
const REFUSED_IPV6: [string, number][] = [
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local
  ["ff00::", 8], // multicast
  ["100::", 64], // discard
  ["64:ff9b::", 96], // NAT64
  ["64:ff9b:1::", 48], // local-use NAT64
  ["2001::", 32], // Teredo
  ["2001::", 23], // IETF protocol assignments
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4
  ["3fff::", 20], // documentation
  ["5f00::", 16], // segment routing
  ["4000::", 2], // not global unicast
  ["::", 96], // IPv4-compatible (deprecated)
];
const REFUSED_IPV4: [number[], number][] = [
  [[10, 0, 0, 0], 8],
  [[172, 16, 0, 0], 12],
  [[192, 168, 0, 0], 16],
  [[169, 254, 0, 0], 16],
  [[100, 64, 0, 0], 10],
  [[0, 0, 0, 0], 8],
  [[192, 0, 2, 0], 24],
  [[198, 51, 100, 0], 24],
  [[203, 0, 113, 0], 24],
  [[224, 0, 0, 0], 4],
  [[240, 0, 0, 0], 4],
];

const word = fc.integer({ min: 0, max: 0xffff });
const words = fc.array(word, { minLength: 8, maxLength: 8 });

function withPrefix(prefix: readonly number[], bits: number, random: readonly number[]) {
  return random.map((value, i) => {
    const take = Math.max(0, Math.min(16, bits - 16 * i));
    const mask = (0xffff << (16 - take)) & 0xffff;
    return ((prefix[i] ?? 0) & mask) | (value & ~mask & 0xffff);
  });
}

const refusedIpv6 = fc
  .tuple(fc.constantFrom(...REFUSED_IPV6), words)
  .map(([[prefix, bits], random]) => withPrefix(parseIpv6(prefix) ?? [], bits, random))
  .filter((g) => !(g.slice(0, 7).every((x) => x === 0) && g[7] === 1));

/** An IPv4-mapped (::ffff:a.b.c.d) or -translated (::ffff:0:a.b.c.d) form of a refused IPv4. */
const embeddedIpv4 = fc
  .tuple(fc.constantFrom(...REFUSED_IPV4), fc.array(fc.nat(255), { minLength: 4, maxLength: 4 }))
  .chain(([[prefix, bits], random]) => {
    const octets = random.map((value, i) => {
      const take = Math.max(0, Math.min(8, bits - 8 * i));
      const mask = (0xff << (8 - take)) & 0xff;
      return ((prefix[i] ?? 0) & mask) | (value & ~mask & 0xff);
    });
    const [a = 0, b = 0, c = 0, d = 0] = octets;
    const tail = [(a << 8) | b, (c << 8) | d];
    const forms: number[][] = [
      [0, 0, 0, 0, 0, 0xffff, ...tail],
      [0, 0, 0, 0, 0xffff, 0, ...tail],
    ];
    return fc.constantFrom(...forms);
  });

/** Public global unicast addresses (2400::/6 holds none of the refused blocks). */
const publicIpv6 = words.map(([first = 0, ...rest]) => [0x2400 | (first & 0x3ff), ...rest]);

/** Any spelling of eight groups: case, zero padding, a compressed zero run, a dotted tail. */
function spelling(groups: number[]) {
  return fc
    .record({
      upper: fc.boolean(),
      pad: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
      dotted: fc.boolean(),
      run: fc.nat(),
    })
    .map(({ upper, pad, dotted, run }) => {
      const hex = groups.map((g, i) => {
        const text = pad[i] ? g.toString(16).padStart(4, "0") : g.toString(16);
        return upper ? text.toUpperCase() : text;
      });
      const [high = 0, low = 0] = groups.slice(6);
      const parts = dotted
        ? [...hex.slice(0, 6), `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`]
        : hex;
      const zeroRuns: [number, number][] = [];
      const span = dotted ? 6 : 8;
      for (let start = 0; start < span; start++) {
        for (let end = start; end < span && groups[end] === 0; end++)
          zeroRuns.push([start, end + 1]);
      }
      const chosen = zeroRuns[run % (zeroRuns.length + 1)];
      if (!chosen) return parts.join(":");
      return `${parts.slice(0, chosen[0]).join(":")}::${parts.slice(chosen[1]).join(":")}`;
    });
}

const spelled = (addresses: fc.Arbitrary<number[]>) =>
  addresses.chain((groups) => spelling(groups).map((text) => ({ groups, text })));

describe("the webhook URL guard, over generated addresses", () => {
  it("reads every spelling of an IPv6 address as that address, zone id or not", () => {
    fc.assert(
      fc.property(spelled(words), fc.option(fc.stringMatching(/^[a-z0-9]{1,8}$/)), (a, zone) => {
        const text = zone === null ? a.text : `${a.text}%${zone}`;
        expect(parseIpv6(text), text).toEqual(a.groups);
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses every spelling of an address in a special-purpose IPv6 block, everywhere", () => {
    fc.assert(
      fc.property(spelled(fc.oneof(refusedIpv6, embeddedIpv4)), ({ text }) => {
        for (const scheme of ["https", "http"]) {
          const url = `${scheme}://[${text}]:8443/hook`;
          expect(checkWebhookUrl(url, production).ok, url).toBe(false);
          expect(checkWebhookUrl(url, local).ok, url).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("accepts a public IPv6 address in any spelling and stores one canonical URL", () => {
    fc.assert(
      fc.property(
        publicIpv6.chain((groups) => fc.tuple(spelling(groups), spelling(groups))),
        ([one, other]) => {
          const a = canonicalWebhookUrl(`https://[${one}]/hook`, production);
          const b = canonicalWebhookUrl(`https://[${other}]/hook`, production);
          expect(a.ok, one).toBe(true);
          expect(a).toEqual(b);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("refuses a control character or whitespace anywhere in a URL", () => {
    const unsafe = fc.oneof(
      fc.integer({ min: 0, max: 0x20 }).map((code) => String.fromCharCode(code)),
      fc.integer({ min: 0x7f, max: 0x9f }).map((code) => String.fromCharCode(code)),
      fc.constantFrom("\u00a0", "\u2028", "\u3000", "\ufeff", "\r\n"),
    );
    const base = "https://hooks.example.com/video-analysis?a=1";
    fc.assert(
      fc.property(fc.nat(base.length), unsafe, (at, char) => {
        const url = `${base.slice(0, at)}${char}${base.slice(at)}`;
        expect(canonicalWebhookUrl(url, production)).toEqual({
          ok: false,
          reason: "must not contain whitespace or control characters",
        });
      }),
      { numRuns: 500 },
    );
  });
});
