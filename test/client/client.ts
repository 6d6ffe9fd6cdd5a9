// A small client built only from the types openapi-typescript generates from the exported
// document (scripts/openapi.mjs), and a walk that calls every operation with the requests the
// README sends. It is type-checked, not run: it fails to compile when the document stops
// accepting what a user sends, or names an operation the tables below do not list.
import type { operations } from "../../dist/openapi/openapi";

type OperationId = keyof operations;
type Method = "get" | "post" | "put" | "patch" | "delete";

type Parameters<Op> = Op extends { parameters: infer P } ? P : never;
type PathOf<Op> = Parameters<Op> extends { path?: infer P } ? P : undefined;
type QueryOf<Op> = Parameters<Op> extends { query?: infer Q } ? Q : undefined;
type BodyOf<Op> = Op extends { requestBody: { content: { "application/json": infer B } } }
  ? B
  : Op extends { requestBody?: { content: { "application/json": infer B } } }
    ? B | undefined
    : undefined;
type Success<Op> = Op extends { responses: infer R }
  ? {
      [S in keyof R]: S extends 200 | 201 | 202
        ? R[S] extends { content: { "application/json": infer J } }
          ? J
          : never
        : never;
    }[keyof R]
  : never;

/** What a call takes: path parameters and a body only where the operation has them. */
type Input<Op> = (undefined extends PathOf<Op> ? { path?: undefined } : { path: PathOf<Op> }) & {
  query?: QueryOf<Op>;
} & (undefined extends BodyOf<Op> ? { body?: BodyOf<Op> } : { body: BodyOf<Op> });

/** Where each operation lives. A mapped type: an operation missing here fails to compile. */
const ROUTES: { [K in OperationId]: [Method, string] } = {
  listVideos: ["get", "/videos"],
  createUpload: ["post", "/videos"],
  getVideo: ["get", "/videos/{video_id}"],
  deleteVideo: ["delete", "/videos/{video_id}"],
  listCaptions: ["get", "/videos/{video_id}/captions"],
  getCaptions: ["get", "/videos/{video_id}/captions/{language}"],
  putCaptions: ["put", "/videos/{video_id}/captions/{language}"],
  getUpload: ["get", "/videos/{video_id}/upload"],
  abortUpload: ["delete", "/videos/{video_id}/upload"],
  recordUploadParts: ["put", "/videos/{video_id}/upload/parts"],
  createUploadTargets: ["post", "/videos/{video_id}/upload/targets"],
  completeUpload: ["post", "/videos/{video_id}/upload/complete"],
  searchVideos: ["post", "/search"],
  createProfile: ["post", "/profiles"],
  listProfiles: ["get", "/profiles"],
  getProfile: ["get", "/profiles/{profile_id}"],
  createProfileVersion: ["post", "/profiles/{profile_id}/versions"],
  getProfileVersion: ["get", "/profiles/{profile_id}/versions/{version}"],
  archiveProfile: ["post", "/profiles/{profile_id}/archive"],
  createReportTemplate: ["post", "/report-templates"],
  listReportTemplates: ["get", "/report-templates"],
  getReportTemplate: ["get", "/report-templates/{report_template_id}"],
  createReportTemplateVersion: ["post", "/report-templates/{report_template_id}/versions"],
  getReportTemplateVersion: ["get", "/report-templates/{report_template_id}/versions/{version}"],
  archiveReportTemplate: ["post", "/report-templates/{report_template_id}/archive"],
  createRun: ["post", "/runs"],
  listRuns: ["get", "/runs"],
  getRun: ["get", "/runs/{run_id}"],
  cancelRun: ["post", "/runs/{run_id}/cancel"],
  listRunAnswers: ["get", "/runs/{run_id}/answers"],
  createReports: ["post", "/runs/{run_id}/reports"],
  listReports: ["get", "/reports"],
  getReport: ["get", "/reports/{report_id}"],
  listRulebooks: ["get", "/rulebooks"],
  createRulebook: ["post", "/rulebooks"],
  previewRulebookCsvImport: ["post", "/rulebooks/csv-imports/preview"],
  createRulebookCsvImport: ["post", "/rulebooks/csv-imports"],
  getRulebook: ["get", "/rulebooks/{rulebook_id}"],
  updateRulebook: ["patch", "/rulebooks/{rulebook_id}"],
  deleteRulebook: ["delete", "/rulebooks/{rulebook_id}"],
  listWorkflows: ["get", "/workflows"],
  createWorkflow: ["post", "/workflows"],
  getWorkflow: ["get", "/workflows/{workflow_id}"],
  listFindings: ["get", "/findings"],
  getFinding: ["get", "/findings/{finding_id}"],
  reviewFinding: ["post", "/findings/{finding_id}/review"],
  createWebhookEndpoint: ["post", "/webhooks"],
  listWebhookEndpoints: ["get", "/webhooks"],
  getWebhookEndpoint: ["get", "/webhooks/{webhook_id}"],
  updateWebhookEndpoint: ["patch", "/webhooks/{webhook_id}"],
  deleteWebhookEndpoint: ["delete", "/webhooks/{webhook_id}"],
  rotateWebhookSecret: ["post", "/webhooks/{webhook_id}/rotate-secret"],
  listWebhookDeliveries: ["get", "/webhooks/{webhook_id}/deliveries"],
  getWebhookDelivery: ["get", "/webhooks/{webhook_id}/deliveries/{delivery_id}"],
  redeliverWebhookDelivery: ["post", "/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver"],
  recoverWebhookDeliveries: ["post", "/webhooks/{webhook_id}/recover"],
  sendWebhookTest: ["post", "/webhooks/{webhook_id}/test"],
  getUsage: ["get", "/usage"],
};

/** A base URL such as http://127.0.0.1:8787/api/v1alpha1 and an API key. */
export interface Connection {
  baseUrl: string;
  key: string;
}

/** Calls one operation and returns its success body; a problem document becomes an Error. */
export async function call<K extends OperationId>(
  connection: Connection,
  id: K,
  input: Input<operations[K]>,
): Promise<Success<operations[K]>> {
  const [method, template] = ROUTES[id];
  const params = (input.path ?? {}) as Record<string, string | number>;
  const url = new URL(
    connection.baseUrl +
      template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(`${params[name]}`)),
  );
  for (const [name, value] of Object.entries(input.query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined) url.searchParams.append(name, String(item));
    }
  }
  const res = await fetch(url, {
    method: method.toUpperCase(),
    headers: { authorization: `Bearer ${connection.key}`, "content-type": "application/json" },
    body: input.body === undefined ? null : JSON.stringify(input.body),
  });
  const json: unknown = await res.json();
  if (!res.ok) throw new Error((json as { detail?: string }).detail ?? `HTTP ${res.status}`);
  return json as Success<operations[K]>;
}

/** One step of the walk per operation, so a new operation fails to compile until it has one. */
type Walk = { [K in OperationId]: (ids: Ids) => Promise<Success<operations[K]>> };
interface Ids {
  video: string;
  profile: string;
  template: string;
  run: string;
  report: string;
  rulebook?: string;
  csvImport?: string;
  workflow?: string;
  finding?: string;
  webhook?: string;
  delivery?: string;
}

/** Every operation, called with the README's requests where it has one. */
export function walk(c: Connection): Walk {
  return {
    listVideos: () => call(c, "listVideos", { query: { limit: 10, status: "completed" } }),
    createUpload: () =>
      call(c, "createUpload", { body: { filename: "talk.mp4", file_size: 5_242_880 } }),
    getVideo: ({ video }) => call(c, "getVideo", { path: { video_id: video } }),
    deleteVideo: ({ video }) => call(c, "deleteVideo", { path: { video_id: video } }),
    listCaptions: ({ video }) => call(c, "listCaptions", { path: { video_id: video } }),
    // Caption files are WebVTT or SRT, not JSON: the typed client (clients/typescript) sends
    // and reads them; here only the operations' parameters are checked.
    getCaptions: ({ video }) =>
      call(c, "getCaptions", {
        path: { video_id: video, language: "en" },
        query: { format: "srt" },
      }),
    putCaptions: ({ video }) =>
      call(c, "putCaptions", { path: { video_id: video, language: "en" } }),
    getUpload: ({ video }) => call(c, "getUpload", { path: { video_id: video } }),
    abortUpload: ({ video }) => call(c, "abortUpload", { path: { video_id: video } }),
    recordUploadParts: ({ video }) =>
      call(c, "recordUploadParts", {
        path: { video_id: video },
        body: { parts: [{ part_number: 1, etag: "0a1b2c" }] },
      }),
    createUploadTargets: ({ video }) =>
      call(c, "createUploadTargets", { path: { video_id: video } }),
    completeUpload: ({ video }) =>
      call(c, "completeUpload", { path: { video_id: video }, body: {} }),
    searchVideos: () =>
      call(c, "searchVideos", { body: { query: '"loading dock" closing time', limit: 5 } }),
    createProfile: () =>
      call(c, "createProfile", {
        body: {
          name: "Safety",
          instructions: "Review the briefing.",
          answer_specs: [
            {
              answer_key: "vests",
              answer_type: "verdict",
              description: "operators must wear high visibility vests",
              evidence: { accepted_types: ["transcript"], required: true },
            },
          ],
        },
      }),
    listProfiles: () => call(c, "listProfiles", {}),
    getProfile: ({ profile }) => call(c, "getProfile", { path: { profile_id: profile } }),
    createProfileVersion: ({ profile }) =>
      call(c, "createProfileVersion", {
        path: { profile_id: profile },
        body: {
          instructions: "Review the briefing again.",
          answer_specs: [{ answer_key: "vests", answer_type: "verdict", description: "vests" }],
        },
      }),
    getProfileVersion: ({ profile }) =>
      call(c, "getProfileVersion", { path: { profile_id: profile, version: 1 } }),
    archiveProfile: ({ profile }) => call(c, "archiveProfile", { path: { profile_id: profile } }),
    createReportTemplate: () =>
      call(c, "createReportTemplate", {
        body: { language: "en", blocks: [{ type: "summary", label: "Summary" }] },
      }),
    listReportTemplates: () => call(c, "listReportTemplates", { query: { status: "active" } }),
    getReportTemplate: ({ template }) =>
      call(c, "getReportTemplate", { path: { report_template_id: template } }),
    createReportTemplateVersion: ({ template }) =>
      call(c, "createReportTemplateVersion", {
        path: { report_template_id: template },
        body: { language: "de", blocks: [{ type: "verdict", answer_key: "vests" }] },
      }),
    getReportTemplateVersion: ({ template }) =>
      call(c, "getReportTemplateVersion", {
        path: { report_template_id: template, version: 1 },
      }),
    archiveReportTemplate: ({ template }) =>
      call(c, "archiveReportTemplate", { path: { report_template_id: template } }),
    // The README's run request: `kind` is left to its default.
    createRun: ({ video, profile }) =>
      call(c, "createRun", {
        body: { source_ids: [video], profile_id: profile, formats: ["markdown"] },
      }),
    listRuns: ({ video }) => call(c, "listRuns", { query: { video_id: video } }),
    getRun: ({ run }) => call(c, "getRun", { path: { run_id: run } }),
    cancelRun: ({ run }) => call(c, "cancelRun", { path: { run_id: run } }),
    listRunAnswers: ({ run }) => call(c, "listRunAnswers", { path: { run_id: run } }),
    createReports: ({ run }) =>
      call(c, "createReports", { path: { run_id: run }, body: { formats: ["json"] } }),
    listReports: ({ run }) =>
      call(c, "listReports", { query: { run_id: run, "expand[]": ["content"] } }),
    getReport: ({ report }) => call(c, "getReport", { path: { report_id: report } }),
    listRulebooks: () => call(c, "listRulebooks", { query: { limit: 20 } }),
    createRulebook: () =>
      call(c, "createRulebook", {
        body: {
          name: "Loading dock safety",
          rules: [{ id: "vests", title: "Vests worn", description: "Operators wear vests." }],
        },
      }),
    previewRulebookCsvImport: () =>
      call(c, "previewRulebookCsvImport", {
        body: { csv: "rule_id,title,description\nvests,Vests worn,Operators wear vests.\n" },
      }),
    createRulebookCsvImport: ({ csvImport }) =>
      call(c, "createRulebookCsvImport", {
        body: {
          session_id: csvImport ?? "",
          default_rulebook_name: "Imported",
          mapping: { rule_id: "rule_id", rule_title: "title", rule_description: "description" },
        },
      }),
    getRulebook: ({ rulebook }) =>
      call(c, "getRulebook", { path: { rulebook_id: rulebook ?? "" } }),
    updateRulebook: ({ rulebook }) =>
      call(c, "updateRulebook", {
        path: { rulebook_id: rulebook ?? "" },
        body: { name: "Loading dock safety (2)" },
      }),
    deleteRulebook: ({ rulebook }) =>
      call(c, "deleteRulebook", { path: { rulebook_id: rulebook ?? "" } }),
    listWorkflows: () => call(c, "listWorkflows", {}),
    createWorkflow: ({ rulebook, video }) =>
      call(c, "createWorkflow", {
        body: { name: "Dock review", rulebook_id: rulebook ?? "", source_ids: [video] },
      }),
    getWorkflow: ({ workflow }) =>
      call(c, "getWorkflow", { path: { workflow_id: workflow ?? "" } }),
    listFindings: ({ run }) =>
      call(c, "listFindings", { query: { run_id: run, result_state: "uncertain" } }),
    getFinding: ({ finding }) => call(c, "getFinding", { path: { finding_id: finding ?? "" } }),
    reviewFinding: ({ finding }) =>
      call(c, "reviewFinding", {
        path: { finding_id: finding ?? "" },
        body: { status: "confirmed", note: "Seen on the clip" },
      }),
    createWebhookEndpoint: () =>
      call(c, "createWebhookEndpoint", {
        body: { url: "https://example.com/hooks", event_types: ["*"] },
      }),
    listWebhookEndpoints: () => call(c, "listWebhookEndpoints", {}),
    getWebhookEndpoint: ({ webhook }) =>
      call(c, "getWebhookEndpoint", { path: { webhook_id: webhook ?? "" } }),
    updateWebhookEndpoint: ({ webhook }) =>
      call(c, "updateWebhookEndpoint", {
        path: { webhook_id: webhook ?? "" },
        body: { enabled: false },
      }),
    deleteWebhookEndpoint: ({ webhook }) =>
      call(c, "deleteWebhookEndpoint", { path: { webhook_id: webhook ?? "" } }),
    rotateWebhookSecret: ({ webhook }) =>
      call(c, "rotateWebhookSecret", { path: { webhook_id: webhook ?? "" } }),
    listWebhookDeliveries: ({ webhook }) =>
      call(c, "listWebhookDeliveries", {
        path: { webhook_id: webhook ?? "" },
        query: { status: "failed" },
      }),
    getWebhookDelivery: ({ webhook, delivery }) =>
      call(c, "getWebhookDelivery", {
        path: { webhook_id: webhook ?? "", delivery_id: delivery ?? "" },
      }),
    redeliverWebhookDelivery: ({ webhook, delivery }) =>
      call(c, "redeliverWebhookDelivery", {
        path: { webhook_id: webhook ?? "", delivery_id: delivery ?? "" },
      }),
    recoverWebhookDeliveries: ({ webhook }) =>
      call(c, "recoverWebhookDeliveries", {
        path: { webhook_id: webhook ?? "" },
        body: { since: "2026-11-01T00:00:00Z" },
      }),
    sendWebhookTest: ({ webhook }) =>
      call(c, "sendWebhookTest", { path: { webhook_id: webhook ?? "" } }),
    getUsage: () =>
      call(c, "getUsage", { query: { from: "2026-11-01", to: "2026-11-30", granularity: "day" } }),
  };
}

/** The README's walk, reading ids from the answers as a user would. */
export async function readmeWalk(c: Connection): Promise<string> {
  const steps = walk(c);
  const session = await steps.createUpload({} as Ids);
  const video = session.video_id;
  const profile = (await steps.createProfile({} as Ids)).id;
  const run = (await steps.createRun({ video, profile, template: "", run: "", report: "" })).id;
  const answers = await steps.listRunAnswers({ video, profile, template: "", run, report: "" });
  return `${session.target?.url ?? ""} ${answers.data.length}`;
}
