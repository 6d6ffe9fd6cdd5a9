import { expect } from "vitest";
import type { RunDto } from "../../../src/routes/runs/schemas";
import { attemptDelivery } from "../../../src/services/webhooks/deliver";
import { dispatchPendingEvents } from "../../../src/services/webhooks/enqueue-attempts";
import { deleteVideo } from "../../helpers/deletion";
import { insertVideos } from "../../helpers/factories";
import { expectJson, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, waitForRun } from "../../helpers/runs";
import { startUpload, uploadTo } from "../../helpers/uploads";
import { startWorkflowRun, waitForWorkflowRun, workflowOver } from "../findings/helpers";
import { createBody } from "../report-templates/bodies";
import { preview } from "../rulebooks/csv";
import { emitEvent, registerEndpoint, scriptedTransport, webhookWorld } from "../webhooks/helpers";

/**
 * A workspace holding one of everything a customer makes: a processed video (bytes, index,
 * vectors), a video deleted earlier, an upload left open with bytes staged, a profile, a report
 * template, an analysis run with JSON and Markdown reports, a rulebook, a workflow and its run
 * with findings, a CSV import session with its file, a webhook endpoint with a delivery and its
 * attempt log, and outbox events. Webhook attempts go through a recording queue and a scripted
 * receiver, so nothing leaves the test.
 */
export async function fullWorkspace() {
  const tenant = await newTenant(["*"]);
  const { api, workspaceId } = tenant;
  const video = await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id);
  expect(video.status).toBe("completed");

  const [gone = ""] = await insertVideos(workspaceId, 1);
  expect((await deleteVideo(api, gone)).status).toBe(204);
  const open = await startUpload(api, "open.mp4", 4);
  await uploadTo(open.targets[0] ?? { url: "", headers: {} }, "abcd");

  const profileId = await createProfile(api);
  const template = await expectJson<{ id: string }>(
    await api.post("/report-templates", createBody()),
    201,
  );
  const started = await expectJson<RunDto>(
    await api.post("/runs", {
      source_ids: [video.id],
      profile_id: profileId,
      report_template_id: template.id,
      formats: ["json", "markdown"],
    }),
    202,
  );
  expect((await waitForRun(api, started.id)).status).toBe("completed");

  const { workflowId } = await workflowOver(api, [video.id]);
  const workflowRun = await startWorkflowRun(api, workflowId);
  expect((await waitForWorkflowRun(api, workflowRun.id)).status).toBe("completed");

  const csv = await preview(api, "id,title\nr1,Hard hats are worn\n");

  const endpoint = await registerEndpoint(api);
  const world = webhookWorld();
  await emitEvent(workspaceId, "video.indexed", { video: { id: video.id } });
  await dispatchPendingEvents(world.deps);
  const { transport } = scriptedTransport([{ status: 204, retryAfter: null }]);
  for (const message of world.queue.take()) await attemptDelivery(world.deps, transport, message);

  return {
    ...tenant,
    videoId: video.id,
    openVideoId: open.video_id,
    runIds: [started.id, workflowRun.id],
    csvSessionId: csv.session_id,
    endpointId: endpoint.id,
  };
}
