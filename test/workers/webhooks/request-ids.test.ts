import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunDto } from "../../../src/routes/runs/schemas";
import type { UploadSessionDto } from "../../../src/routes/uploads/schemas";
import type { VideoDto } from "../../../src/routes/videos/schemas";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { outbox, outboxRequests, uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, waitForRun } from "../../helpers/runs";
import { uploadTo } from "../../helpers/uploads";
import { registerEndpoint } from "./helpers";

const RECEIVER = "https://receiver.example.com/hooks";

interface Attempt {
  type: string;
  body: Record<string, unknown>;
  headers: Headers;
}

/**
 * Answers the real webhook consumer's POSTs to the receiver with 204 and keeps them; every
 * other fetch goes out as it would.
 */
function receiver(): Attempt[] {
  const attempts: Attempt[] = [];
  const original = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (request.url !== RECEIVER) return original(input, init);
    const body = (await request.json()) as Record<string, unknown>;
    attempts.push({ type: String(body.type), body, headers: request.headers });
    return new Response(null, { status: 204 });
  });
  return attempts;
}

async function attemptOf(attempts: Attempt[], type: string): Promise<Attempt> {
  await vi.waitUntil(() => attempts.some((a) => a.type === type), { timeout: 20_000 });
  const attempt = attempts.find((a) => a.type === type);
  if (!attempt) throw new Error(`no ${type} attempt`);
  return attempt;
}

async function deliveriesOf(api: Client, endpointId: string) {
  const res = await api.get(`/webhooks/${endpointId}/deliveries`);
  return (await expectJson<{ data: { event_type: string; request_id: string | null }[] }>(res, 200))
    .data;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("one request id from the call to the webhook it causes", () => {
  it("follows an upload to its video, its events and their deliveries, and so does a deletion", async () => {
    const { api, workspaceId } = await newTenant();
    const endpoint = await registerEndpoint(api, { url: RECEIVER });
    const attempts = receiver();
    const bytes = fixtureBytes("talk.mp4");
    const created = await api.post(
      "/videos",
      { filename: "talk.mp4", file_size: bytes.byteLength },
      { "x-request-id": "upload-create-1" },
    );
    const session = await expectJson<UploadSessionDto>(created, 201);
    await uploadTo(session.targets[0] ?? { url: "", headers: {} }, bytes);
    const completed = await api.post(
      `/videos/${session.video_id}/upload/complete`,
      {},
      {
        "x-request-id": "upload-complete-1",
      },
    );
    expect((await expectJson<VideoDto>(completed, 200)).request_id).toBe("upload-create-1");

    const video = await waitForFinal(api, session.video_id);
    expect(video).toMatchObject({ status: "completed", request_id: "upload-create-1" });
    // Processing was the completion's work: its event, delivery and attempt name that request.
    expect(await outboxRequests(workspaceId)).toEqual([
      { type: "video.indexed", request_id: "upload-complete-1" },
    ]);
    const indexed = (await outbox(workspaceId)).find((event) => event.type === "video.indexed");
    expect(indexed?.data.video.request_id).toBe("upload-create-1");
    const attempt = await attemptOf(attempts, "video.indexed");
    expect(attempt.headers.get("vas-request-id")).toBe("upload-complete-1");
    expect(attempt.headers.get("x-request-id")).toBeNull();
    expect(Object.keys(attempt.body).sort()).toEqual(["created_at", "data", "id", "type"]);

    const deleted = await api.request("DELETE", `/videos/${video.id}`, {
      headers: { "x-request-id": "delete-1" },
    });
    expect(deleted.status, await deleted.text()).toBe(204);
    const erased = await attemptOf(attempts, "video.deleted");
    expect(erased.headers.get("vas-request-id")).toBe("delete-1");
    const history = await deliveriesOf(api, endpoint.id);
    expect(history.map((d) => [d.event_type, d.request_id])).toEqual([
      ["video.deleted", "delete-1"],
      ["video.indexed", "upload-complete-1"],
    ]);
  });

  it("follows POST /runs to run.completed and its delivery", async () => {
    const { api } = await newTenant();
    const video = await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id);
    const profileId = await createProfile(api);
    const endpoint = await registerEndpoint(api, { url: RECEIVER, event_types: ["run.completed"] });
    const attempts = receiver();
    const accepted = await api.post(
      "/runs",
      { source_ids: [video.id], profile_id: profileId },
      { "x-request-id": "run-req-1" },
    );
    const run = await expectJson<RunDto>(accepted, 202);
    expect(accepted.headers.get("x-request-id")).toBe("run-req-1");
    expect((await waitForRun(api, run.id)).status).toBe("completed");
    const attempt = await attemptOf(attempts, "run.completed");
    expect(attempt.headers.get("vas-request-id")).toBe("run-req-1");
    expect(attempt.body.data).toMatchObject({ run: { id: run.id } });
    expect(await deliveriesOf(api, endpoint.id)).toMatchObject([
      { event_type: "run.completed", request_id: "run-req-1" },
    ]);
  });

  it("names the request that sent a test event", async () => {
    const { api } = await newTenant(["MANAGE_WEBHOOKS"]);
    const endpoint = await registerEndpoint(api, { url: RECEIVER });
    const res = await api.post(`/webhooks/${endpoint.id}/test`, undefined, {
      "x-request-id": "test-event-1",
    });
    const delivery = await expectJson<{ request_id: string | null }>(res, 202);
    expect(delivery.request_id).toBe("test-event-1");
  });
});
