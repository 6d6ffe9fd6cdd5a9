import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newEndpointSecret } from "../../../src/services/webhooks/secret-format";
import { webhookHeaders } from "../../../src/services/webhooks/signature";

// The service's signatures checked by an outside verifier: the Standard Webhooks reference
// library, as a receiver would use it (5-minute timestamp tolerance).
const body = JSON.stringify({
  id: "evt_01jd3m6t8y0c7x4k2n9q5r1s3v",
  type: "video.indexed",
  created_at: "2026-11-21T09:30:00.000Z",
  data: { video: { id: "vid_01jd3m6t8y0c7x4k2n9q5r1s3v", status: "completed" } },
});
const now = () => Math.floor(Date.now() / 1000);

describe("webhook signatures, verified with standardwebhooks", () => {
  it("verifies a delivery signed with the endpoint's secret and returns its payload", async () => {
    const secret = newEndpointSecret();
    const headers = await webhookHeaders([secret], "evt_1", now(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("verifies with either secret while a rotation overlaps", async () => {
    const previous = newEndpointSecret();
    const current = newEndpointSecret();
    const headers = await webhookHeaders([current, previous], "evt_2", now(), body);
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newEndpointSecret()).verify(body, headers)).toThrow();
  });

  it("rejects a changed body, another id and a timestamp outside the tolerance", async () => {
    const secret = newEndpointSecret();
    const headers = await webhookHeaders([secret], "evt_3", now(), body);
    const verifier = new Webhook(secret);
    expect(() => verifier.verify(body.replace("completed", "failed"), headers)).toThrow();
    expect(() => verifier.verify(body, { ...headers, "webhook-id": "evt_4" })).toThrow();
    const stale = await webhookHeaders([secret], "evt_3", now() - 6 * 60, body);
    expect(() => verifier.verify(body, stale)).toThrow();
  });

  it("matches the library's own signature for the same message", async () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const timestamp = 1614265330;
    const ours = await webhookHeaders([secret], "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp, body);
    const theirs = new Webhook(secret).sign(
      "msg_p5jXN8AQM9LWM0D4loKWxJek",
      new Date(timestamp * 1000),
      body,
    );
    expect(ours["webhook-signature"]).toBe(theirs);
  });
});
