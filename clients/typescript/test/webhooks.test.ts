import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { verifyWebhook } from "../src/index.js";

// A vector made by the Standard Webhooks reference package, as a receiver would get it.
const secret = `whsec_${btoa("a-test-secret-of-24-byte")}`;
const id = "msg_2b3c4d";
const now = 1_790_000_000;
const body = JSON.stringify({ id: "evt_1", type: "video.indexed", data: { video_id: "vid_1" } });
const signature = new Webhook(secret).sign(id, new Date(now * 1000), body);
const headers = {
  "webhook-id": id,
  "webhook-timestamp": String(now),
  "webhook-signature": signature,
};

describe("verifyWebhook", () => {
  it("accepts the reference package's signature and returns the event", async () => {
    const event = await verifyWebhook({ secret, headers, body, nowSeconds: now + 10 });
    expect(event).toEqual(JSON.parse(body));
  });

  it("accepts Headers and any of several signatures, and any of several secrets", async () => {
    const other = `whsec_${btoa("another-secret-24-bytes!")}`;
    const both = new Headers({ ...headers, "webhook-signature": `v1,AAAA ${signature}` });
    await expect(
      verifyWebhook({ secret: [other, secret], headers: both, body, nowSeconds: now }),
    ).resolves.toMatchObject({ type: "video.indexed" });
  });

  it.each([
    ["a changed body", { body: body.replace("vid_1", "vid_2") }],
    ["another secret", { secret: `whsec_${btoa("another-secret-24-bytes!")}` }],
    ["a timestamp six minutes old", { nowSeconds: now + 360 }],
    ["a missing signature", { headers: { ...headers, "webhook-signature": undefined } }],
  ])("refuses %s with kind signature", async (_, change) => {
    const input = { secret, headers, body, nowSeconds: now, ...change };
    await expect(verifyWebhook(input)).rejects.toMatchObject({
      kind: "signature",
      code: "invalid-signature",
    });
  });
});
