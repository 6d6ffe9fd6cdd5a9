import { describe, expect, it } from "vitest";
import { attemptDelivery } from "../../../src/services/webhooks/deliver";
import { insertVideos } from "../../helpers/factories";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { SAFETY_PROFILE, waitForRun } from "../../helpers/runs";
import { alphaOperations } from "../../helpers/security";
import { startUpload, uploadTo } from "../../helpers/uploads";
import {
  allFindings,
  startWorkflowRun,
  waitForWorkflowRun,
  workflowOver,
} from "../findings/helpers";
import { scriptedTransport, webhookWorld } from "../webhooks/helpers";

// Every POST of the OpenAPI document, read from the app's own document: each one replays its
// first answer for the same Idempotency-Key and refuses another body with 422, so a POST added
// later fails here until it has a scenario below (and, through alphaRoute, it honours the key).
const world = webhookWorld();
const posts = (await alphaOperations()).filter((op) => op.method === "POST").map((op) => op.path);

interface Tenant {
  api: Client;
  workspaceId: string;
}
/** A first request that succeeds, made in a world the scenario builds for it. */
type Scenario = (tenant: Tenant) => Promise<{ path: string; body?: unknown }>;

async function created(res: Response): Promise<string> {
  const text = await res.text();
  expect(res.status, text).toBeLessThan(300);
  return (JSON.parse(text) as { id: string }).id;
}

async function video({ workspaceId }: Tenant): Promise<string> {
  const [id] = await insertVideos(workspaceId, 1);
  return id ?? "";
}

async function analysisRun(tenant: Tenant): Promise<string> {
  const profile = await created(await tenant.api.post("/profiles", SAFETY_PROFILE));
  const body = { source_ids: [await video(tenant)], profile_id: profile };
  return created(await tenant.api.post("/runs", body));
}

async function endpoint({ api }: Tenant): Promise<string> {
  const body = { url: "https://receiver.example.com/hooks", event_types: ["*"] };
  return created(await world.call(api.key, "POST", "/webhooks", body));
}

const TEMPLATE = { language: "en", blocks: [{ type: "summary", label: "Summary" }] };
const CSV = "rule_id,title,description\nvests,Vests worn,Operators wear vests.\n";

const SCENARIOS: Record<string, Scenario> = {
  "/videos": async () => ({ path: "/videos", body: { filename: "a.mp4", file_size: 1024 } }),
  "/videos/{video_id}/upload/targets": async ({ api }) => {
    const session = await startUpload(api, "a.mp4", 1024);
    return { path: `/videos/${session.video_id}/upload/targets` };
  },
  "/videos/{video_id}/upload/complete": async ({ api }) => {
    const session = await startUpload(api, "a.mp4", 4);
    await uploadTo(session.targets[0] ?? { url: "", headers: {} }, "abcd");
    return { path: `/videos/${session.video_id}/upload/complete`, body: {} };
  },
  "/search": async () => ({ path: "/search", body: { query: "loading dock", limit: 5 } }),
  "/profiles": async () => ({ path: "/profiles", body: SAFETY_PROFILE }),
  "/profiles/{profile_id}/versions": async ({ api }) => {
    const id = await created(await api.post("/profiles", SAFETY_PROFILE));
    const { instructions, answer_specs } = SAFETY_PROFILE;
    return { path: `/profiles/${id}/versions`, body: { instructions, answer_specs } };
  },
  "/profiles/{profile_id}/archive": async ({ api }) => {
    const id = await created(await api.post("/profiles", SAFETY_PROFILE));
    return { path: `/profiles/${id}/archive` };
  },
  "/report-templates": async () => ({ path: "/report-templates", body: TEMPLATE }),
  "/report-templates/{report_template_id}/versions": async ({ api }) => {
    const id = await created(await api.post("/report-templates", { name: "Weekly", ...TEMPLATE }));
    return { path: `/report-templates/${id}/versions`, body: TEMPLATE };
  },
  "/report-templates/{report_template_id}/archive": async ({ api }) => {
    const id = await created(await api.post("/report-templates", TEMPLATE));
    return { path: `/report-templates/${id}/archive` };
  },
  "/runs": async (tenant) => {
    const profile = await created(await tenant.api.post("/profiles", SAFETY_PROFILE));
    return { path: "/runs", body: { source_ids: [await video(tenant)], profile_id: profile } };
  },
  "/runs/{run_id}/cancel": async (tenant) => ({
    path: `/runs/${await analysisRun(tenant)}/cancel`,
  }),
  "/runs/{run_id}/reports": async (tenant) => {
    const run = await analysisRun(tenant);
    await waitForRun(tenant.api, run);
    return { path: `/runs/${run}/reports`, body: { formats: ["json"] } };
  },
  "/rulebooks": async () => ({
    path: "/rulebooks",
    body: { name: "Dock", rules: [{ id: "vests", title: "Vests", description: "Vests worn." }] },
  }),
  "/rulebooks/csv-imports/preview": async () => ({
    path: "/rulebooks/csv-imports/preview",
    body: { csv: CSV },
  }),
  "/rulebooks/csv-imports": async ({ api }) => {
    const res = await api.post("/rulebooks/csv-imports/preview", { csv: CSV });
    const { session_id } = await expectJson<{ session_id: string }>(res, 201);
    const mapping = { rule_id: "rule_id", rule_title: "title", rule_description: "description" };
    const body = { session_id, default_rulebook_name: "Imported", mapping };
    return { path: "/rulebooks/csv-imports", body };
  },
  "/workflows": async (tenant) => {
    const rulebook = await created(
      await tenant.api.post("/rulebooks", {
        name: "Dock",
        rules: [{ id: "vests", title: "Vests", description: "Vests worn." }],
      }),
    );
    const body = { name: "Review", rulebook_id: rulebook, source_ids: [await video(tenant)] };
    return { path: "/workflows", body };
  },
  "/findings/{finding_id}/review": async (tenant) => {
    const { workflowId } = await workflowOver(tenant.api, [await video(tenant)]);
    const run = await startWorkflowRun(tenant.api, workflowId);
    await waitForWorkflowRun(tenant.api, run.id);
    const [finding] = await allFindings(tenant.api, `run_id=${run.id}`);
    return { path: `/findings/${finding?.id}/review`, body: { status: "confirmed" } };
  },
  "/webhooks": async () => ({
    path: "/webhooks",
    body: { url: "https://receiver.example.com/hooks", event_types: ["*"] },
  }),
  "/webhooks/{webhook_id}/rotate-secret": async (tenant) => ({
    path: `/webhooks/${await endpoint(tenant)}/rotate-secret`,
  }),
  "/webhooks/{webhook_id}/test": async (tenant) => ({
    path: `/webhooks/${await endpoint(tenant)}/test`,
  }),
  "/webhooks/{webhook_id}/recover": async (tenant) => ({
    path: `/webhooks/${await endpoint(tenant)}/recover`,
    body: { since: new Date(Date.now() - 3600_000).toISOString() },
  }),
  "/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver": async (tenant) => {
    const id = await endpoint(tenant);
    const delivery = await created(
      await world.call(tenant.api.key, "POST", `/webhooks/${id}/test`),
    );
    const [message] = world.queue.take().filter((m) => m.delivery_id === delivery);
    if (!message) throw new Error("the test delivery was not queued");
    const { transport } = scriptedTransport([{ status: 204, retryAfter: null }]);
    world.clock.at = Date.now();
    expect(await attemptDelivery(world.deps, transport, message)).toBe("delivered");
    return { path: `/webhooks/${id}/deliveries/${delivery}/redeliver` };
  },
};

function send(tenant: Tenant, request: { path: string; body?: unknown }, key: string) {
  return world.call(tenant.api.key, "POST", request.path, request.body, {
    "Idempotency-Key": key,
  });
}

describe("Idempotency-Key on every POST of the OpenAPI document", () => {
  it("has a scenario for exactly the document's POSTs", () => {
    expect(posts.length).toBeGreaterThan(20);
    expect(Object.keys(SCENARIOS).sort()).toEqual([...posts].sort());
  });

  it.each(posts)(
    "POST %s runs once for parallel retries, replays, and 422s another body",
    async (path) => {
      const scenario = SCENARIOS[path];
      if (!scenario) throw new Error(`no scenario for POST ${path}`);
      const tenant = await newTenant();
      const request = await scenario(tenant);
      const key = `key-${crypto.randomUUID()}`;
      const answers = await Promise.all([1, 2, 3].map(() => send(tenant, request, key)));
      const bodies = await Promise.all(answers.map((res) => res.text()));
      const [first] = answers;
      expect(first?.status, bodies[0]).toBeGreaterThanOrEqual(200);
      expect(first?.status, bodies[0]).toBeLessThan(300);
      expect(answers.map((res) => res.status)).toEqual(Array(3).fill(first?.status));
      expect(new Set(bodies).size, bodies.join("\n")).toBe(1);
      const fresh = answers.filter((res) => res.headers.get("idempotent-replayed") === null);
      expect(fresh).toHaveLength(1);

      const later = await send(tenant, request, key);
      expect(later.status).toBe(first?.status);
      expect(later.headers.get("idempotent-replayed")).toBe("true");
      expect(await later.text()).toBe(bodies[0]);

      const other = await send(tenant, { ...request, body: { other: request.body ?? null } }, key);
      const text = await other.text();
      expect(other.status, text).toBe(422);
      expect(JSON.parse(text)).toMatchObject({ code: "idempotency-key-mismatch" });
    },
  );
});
