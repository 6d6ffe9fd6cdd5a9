import { describe, expect, it } from "vitest";
import { checkWebhookUrl } from "../../../src/services/webhooks/url-guard";
import { expectProblem, newTenant } from "../../helpers/harness";

const production = { allowLoopbackHttp: false };
const local = { allowLoopbackHttp: true };

// Every spelling of a private or special address the guard must refuse, in any deployment.
const PRIVATE: [string, string][] = [
  ["RFC 1918 10/8", "https://10.0.0.1/hook"],
  ["RFC 1918 172.16/12", "https://172.16.5.4/hook"],
  ["RFC 1918 192.168/16", "https://192.168.1.10/hook"],
  ["CGNAT 100.64/10", "https://100.64.0.1/hook"],
  ["link-local / metadata", "https://169.254.169.254/latest/meta-data"],
  ["this network 0/8", "https://0.0.0.0/"],
  ["bare zero", "https://0/"],
  ["multicast", "https://224.0.0.1/"],
  ["broadcast", "https://255.255.255.255/"],
  ["decimal metadata", "https://2852039166/"],
  ["hex metadata", "https://0xa9fea9fe/"],
  ["dotted hex private", "https://0x0a.0x00.0x00.0x01/"],
  ["octal private", "https://012.0.0.1/"],
  ["short private", "https://10.1/"],
  ["IPv4-mapped IPv6 metadata", "https://[::ffff:169.254.169.254]/"],
  ["IPv4-mapped IPv6 hex", "https://[::ffff:a9fe:a9fe]/"],
  ["IPv4-mapped long form", "https://[0:0:0:0:0:ffff:10.0.0.1]/"],
  ["IPv4-compatible IPv6", "https://[::10.0.0.1]/"],
  ["NAT64 of a private address", "https://[64:ff9b::10.0.0.1]/"],
  ["unspecified IPv6", "https://[::]/"],
  ["unique local fc00::/7", "https://[fd00:ec2::254]/"],
  ["unique local fc..", "https://[fc00::1]/"],
  ["link-local IPv6", "https://[fe80::1]/"],
  ["IPv4-translated metadata", "https://[::ffff:0:a9fe:a9fe]/"],
  ["IPv4-translated dotted", "https://[::ffff:0:169.254.169.254]/"],
  [
    "IPv4-mapped expanded, zero-padded, uppercase",
    "https://[0000:0000:0000:0000:0000:FFFF:A9FE:A9FE]/",
  ],
  ["6to4 of metadata", "https://[2002:a9fe:a9fe::1]/"],
  ["6to4 of a public address", "https://[2002:0808:0808::1]/"],
  ["Teredo", "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/"],
  ["Teredo compressed", "https://[2001::1]/"],
  ["local-use NAT64", "https://[64:ff9b:1::a9fe:a9fe]/"],
  ["NAT64 of a public address", "https://[64:ff9b::8.8.8.8]/"],
  ["site-local", "https://[fec0::1]/"],
  ["site-local uppercase", "https://[FEC0:0:0:0:0:0:0:1]/"],
  ["multicast IPv6", "https://[ff02::1]/"],
  ["discard-only", "https://[100::1]/"],
  ["IPv6 documentation 2001:db8::/32", "https://[2001:db8::1]/"],
  ["IPv6 documentation 3fff::/20", "https://[3fff::1]/"],
  ["IPv6 benchmarking", "https://[2001:2::1]/"],
  ["link-local with a zone id", "https://[fe80::1%25eth0]/"],
  ["TEST-NET-1", "https://192.0.2.10/"],
  ["TEST-NET-2", "https://198.51.100.7/"],
  ["TEST-NET-3", "https://203.0.113.7:8443/hook"],
  ["6to4 relay anycast", "https://192.88.99.1/"],
  ["GCP metadata name", "https://metadata.google.internal/computeMetadata/v1/"],
  ["internal name", "https://db.internal/"],
];

// Loopback in every spelling: refused in production, allowed locally (http and https).
const LOOPBACK: [string, string][] = [
  ["dotted", "http://127.0.0.1:9000/hook"],
  ["other 127/8", "http://127.10.20.30/"],
  ["decimal", "http://2130706433/"],
  ["hex", "http://0x7f000001/"],
  ["dotted hex", "http://0x7f.0.0.1/"],
  ["octal", "http://0177.0.0.1/"],
  ["short", "http://127.1/"],
  ["IPv6 ::1", "http://[::1]:8080/"],
  ["IPv4-mapped IPv6", "http://[::ffff:127.0.0.1]/"],
  ["localhost", "http://localhost:3000/"],
  ["LOCALHOST with a dot", "http://LOCALHOST./"],
  ["*.localhost", "http://api.localhost/"],
];

describe("the webhook URL guard", () => {
  it.each(PRIVATE)("refuses %s (%s) everywhere", (_, url) => {
    expect(checkWebhookUrl(url, production).ok).toBe(false);
    expect(checkWebhookUrl(url, local).ok).toBe(false);
    expect(checkWebhookUrl(url.replace(/^https:/, "http:"), local).ok).toBe(false);
  });

  it.each(LOOPBACK)("refuses loopback %s (%s) in production, allows it locally", (_, url) => {
    expect(checkWebhookUrl(url, production)).toMatchObject({ ok: false });
    expect(checkWebhookUrl(url.replace(/^http:/, "https:"), production).ok).toBe(false);
    expect(checkWebhookUrl(url, local).ok).toBe(true);
  });

  it.each([
    ["credentials", "https://user:pass@hooks.example.com/"],
    ["a user alone", "https://user@hooks.example.com/"],
    ["plain http", "http://hooks.example.com/"],
    ["another scheme", "ftp://hooks.example.com/"],
    ["javascript", "javascript:alert(1)"],
    ["a relative URL", "/hooks"],
  ])("refuses %s (%s)", (_, url) => {
    expect(checkWebhookUrl(url, production).ok).toBe(false);
    expect(checkWebhookUrl(url, local).ok).toBe(false);
  });

  it.each([
    "https://hooks.example.com/video-analysis",
    "https://93.184.215.14:8443/hook",
    "https://[2a00:1450:4001:82b::200e]/hook",
    "https://[::ffff:93.184.215.14]/hook",
    "https://[2606:4700:4700::1111]/hook",
    "https://10.0.0.1.nip.io/",
    "https://localhost.example.com/",
  ])("accepts the public URL %s", (url) => {
    expect(checkWebhookUrl(url, production).ok).toBe(true);
  });

  it("answers 400 naming url for a refused address through the API", async () => {
    const { api } = await newTenant(["MANAGE_WEBHOOKS"]);
    for (const url of [
      "https://169.254.169.254/",
      "https://user:pw@example.com/",
      "http://example.com/",
    ]) {
      const res = await api.post("/webhooks", { url, event_types: ["*"] });
      const problem = await expectProblem(res, 400, "invalid-request");
      expect(problem.errors?.map((e) => e.path)).toEqual(["url"]);
    }
  });

  it("lets local development register an http loopback receiver", async () => {
    const { api } = await newTenant(["MANAGE_WEBHOOKS"]);
    const res = await api.post("/webhooks", { url: "http://127.0.0.1:4242/", event_types: ["*"] });
    expect(res.status, await res.clone().text()).toBe(201);
  });
});
