import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ProcessVideoMessageSchema } from "../../../src/lib/queue-messages";
import { createPorts } from "../../../src/ports";
import { consumeEach } from "../../../src/queues/consume";
import { createDeps } from "../../../src/services/deps";

function lines(spy: { mock: { calls: unknown[][] } }): Record<string, unknown>[] {
  return spy.mock.calls.map((call) => JSON.parse(String(call[0])) as Record<string, unknown>);
}

function message(id: string, requestId?: string) {
  return {
    id,
    timestamp: new Date(),
    attempts: 1,
    body: {
      type: "process-video",
      video_id: `vid_${id}`,
      workspace_id: "ws_logs",
      ...(requestId === undefined ? {} : { request_id: requestId }),
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("log lines of queued work", () => {
  it("carry the request id each message names, on the work's lines and its failure's", async () => {
    const info = vi.spyOn(console, "log").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const batch = createMessageBatch("video-processing", [
      message("a", "req-a"),
      message("b", "req-b"),
      message("c"),
    ]);
    await consumeEach(
      batch,
      ProcessVideoMessageSchema,
      createDeps(env, createPorts(env)),
      async (deps, body) => {
        deps.log.info({ working_on: body.video_id });
        if (body.video_id !== "vid_b") throw new Error(`${body.video_id} went wrong`);
      },
    );
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.retryMessages.map((m) => m.msgId).sort()).toEqual(["a", "c"]);
    expect(lines(info)).toEqual([
      { request_id: "req-a", working_on: "vid_a" },
      { request_id: "req-b", working_on: "vid_b" },
      { working_on: "vid_c" },
    ]);
    expect(lines(error)).toEqual([
      { request_id: "req-a", queue_message: "a", attempts: 1, error: "Error: vid_a went wrong" },
      { queue_message: "c", attempts: 1, error: "Error: vid_c went wrong" },
    ]);
  });
});
