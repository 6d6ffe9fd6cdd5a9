import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminCli, apiClient, type Client, fixture, poll, waitForFinal } from "./local-client";
import { ADAPTERS, FIRST_START_MS, freePort, LocalProcess } from "./local-process";
import { vestsProfile } from "./profiles";
import { chunkedPost, exchangeOnOneConnection, smallPost } from "./raw-http";

// The real local path: `npm run dev` as a process on a free port, spoken to over HTTP,
// exactly as the README and the black-box suite start it.
const ROOT = path.resolve(import.meta.dirname, "../..");
// Characters an env file would otherwise cut (#), expand ($) or unquote ("): kept exactly.
const ADMIN_TOKEN = ['e2e-admin#token$HOME"', "{X}"].join("$");
const run = promisify(execFile);
let service: LocalProcess;
let baseUrl: string;
let stateDir: string;
/** The video the upload test processed, and a key of its workspace, for the workflow test. */
let uploaded: { videoId: string; api: Client } | undefined;

const admin = (args: string[]) => adminCli(service, ADMIN_TOKEN)(args);

beforeAll(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), "vas-e2e-"));
  // An empty state folder, as a newcomer's first `npm run dev` meets it: every migration runs.
  service = new LocalProcess(
    await freePort(),
    { STATE_DIR: stateDir, ADMIN_TOKEN },
    { emptyState: true },
  );
  baseUrl = service.baseUrl;
  await service.start();
}, FIRST_START_MS + 30_000);

afterAll(async () => {
  await service.stop("SIGTERM");
  rmSync(stateDir, { recursive: true, force: true });
});

describe("npm run dev", () => {
  it("lets the admin CLI create a workspace and key that reads an empty list", async () => {
    const workspace = JSON.parse(
      (await admin(["workspaces", "create", "--name", "E2E", "--alpha-opt-in"])).stdout,
    );
    expect(workspace).toMatchObject({ name: "E2E", alpha_opt_in: true });
    const key = JSON.parse(
      (await admin(["keys", "create", "--workspace", workspace.id, "--permissions", "READ_VIDEOS"]))
        .stdout,
    );
    const res = await apiClient(service, key.key).fetch("GET", "/videos");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: [], has_more: false, next_cursor: null });

    await admin(["keys", "revoke", key.id]);
    const revoked = await apiClient(service, key.key).fetch("GET", "/videos");
    expect(revoked.status).toBe(401);
  });

  it("deletes a workspace from the CLI only when told --yes; its keys answer 401 at once", async () => {
    const workspace = JSON.parse(
      (await admin(["workspaces", "create", "--name", "Doomed", "--alpha-opt-in"])).stdout,
    );
    const key = JSON.parse((await admin(["keys", "create", "--workspace", workspace.id])).stdout);
    const videos = () => apiClient(service, key.key).fetch("GET", "/videos");
    expect((await videos()).status).toBe(200);
    await expect(admin(["workspaces", "delete", workspace.id])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--yes"),
    });
    expect((await videos()).status).toBe(200);

    const deletion = JSON.parse(
      (await admin(["workspaces", "delete", workspace.id, "--yes"])).stdout,
    );
    expect(deletion).toMatchObject({ id: workspace.id, name: "Doomed", status: "deleting" });
    expect((await videos()).status).toBe(401);
    const listed = JSON.parse((await admin(["workspaces", "list", "--json"])).stdout);
    expect(listed.map((w: { id: string }) => w.id)).not.toContain(workspace.id);
  });

  it("takes the API root as its base URL too, as vas does", async () => {
    const listed = await run(
      "node",
      ["scripts/admin.mjs", "--admin-token", ADMIN_TOKEN, "workspaces", "list", "--json"],
      { cwd: ROOT, env: { ...process.env, VAS_BASE_URL: `${baseUrl}/api/v1alpha1/` } },
    );
    // Before, it called …/api/v1alpha1/admin/v1 and reported the token as refused.
    expect(Array.isArray(JSON.parse(listed.stdout))).toBe(true);
  });

  it("reports admin errors from the CLI with a non-zero exit", async () => {
    await expect(admin(["keys", "revoke", "key_00000000000000000000000000"])).rejects.toMatchObject(
      {
        code: 1,
        stderr: expect.stringContaining("404"),
      },
    );
  });

  it("lists workspaces and keys from the CLI, with permissions and expiry but no secret", async () => {
    const workspace = JSON.parse(
      (
        await admin([
          "workspaces",
          "create",
          "--name",
          "Listed",
          "--alpha-opt-in",
          "--index-private-tags",
          "--retention-days",
          "30",
        ])
      ).stdout,
    );
    expect(workspace).toMatchObject({
      alpha_opt_in: true,
      index_private_tags: true,
      retention_days: 30,
    });
    const key = JSON.parse(
      (
        await admin([
          "keys",
          "create",
          "--workspace",
          workspace.id,
          "--permissions",
          "READ_VIDEOS,SEARCH_CONTENT",
          "--expires-at",
          "2030-01-01T00:00:00.000Z",
        ])
      ).stdout,
    );
    await admin(["keys", "revoke", key.id]);
    const workspaces = (await admin(["workspaces", "list"])).stdout;
    expect(workspaces.split("\n")[0]).toMatch(
      /^ID\s+ALPHA\s+PRIVATE\s+RETENTION\s+CREATED\s+NAME$/,
    );
    expect(workspaces).toMatch(
      new RegExp(`${workspace.id}\\s+yes\\s+indexed\\s+30d\\s+\\S+\\s+Listed`),
    );
    const kept = JSON.parse(
      (await admin(["workspaces", "update", workspace.id, "--retention-days", "none"])).stdout,
    );
    expect(kept).toMatchObject({ id: workspace.id, retention_days: null });
    const keys = (await admin(["keys", "list", "--workspace", workspace.id])).stdout;
    const row = keys.split("\n").find((line) => line.startsWith(key.id)) ?? "";
    expect(row).toContain(workspace.id);
    expect(row).toContain("READ_VIDEOS,SEARCH_CONTENT");
    expect(row).toContain("2030-01-01T00:00:00.000Z");
    expect(row).not.toMatch(/\sno$/);
    expect(keys).not.toContain(key.key);
    const listed = JSON.parse(
      (await admin(["keys", "list", "--workspace", workspace.id, "--json"])).stdout,
    );
    expect(listed).toEqual([
      expect.objectContaining({ id: key.id, revoked_at: expect.any(String) }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(key.key);
  });

  it("prints one line, no stack, for a refused connection, a wrong token and a 4xx", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const cases: [string[], RegExp][] = [
      [
        [
          "node",
          "scripts/admin.mjs",
          "--base-url",
          closed,
          "--admin-token",
          "x",
          "workspaces",
          "list",
        ],
        /^cannot reach the service at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
      ],
      [
        [
          "node",
          "scripts/admin.mjs",
          "--base-url",
          baseUrl,
          "--admin-token",
          "wrong",
          "workspaces",
          "list",
        ],
        /^the admin token was refused .*\(401\)/,
      ],
      [
        [
          "node",
          "scripts/admin.mjs",
          "--base-url",
          baseUrl,
          "--admin-token",
          ADMIN_TOKEN,
          "keys",
          "list",
          "--workspace",
          "ws_00000000000000000000000000",
        ],
        /^GET \/admin\/v1\/keys\?workspace_id=ws_0+\S* failed with 404: \S/,
      ],
    ];
    for (const [[command, ...args], line] of cases) {
      const failure = await run(command ?? "node", args, { cwd: ROOT }).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code, args.join(" ")).toBe(1);
      expect(failure?.stderr).toMatch(line);
      expect(failure?.stderr.trimEnd().split("\n")).toHaveLength(1);
    }
  });

  it("names every permission in the CLI's --help", async () => {
    const { PERMISSIONS } = await import("../../src/domain/caller");
    const help = (await run("node", ["scripts/admin.mjs", "--help"], { cwd: ROOT })).stdout;
    for (const permission of PERMISSIONS) expect(help).toContain(permission);
  });

  it("serves an OpenAPI document that validates", async () => {
    const doc = await (await fetch(`${baseUrl}/api/v1alpha1/openapi.json`)).json();
    const result = await validate(doc);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(Object.keys(doc.paths)).toContain("/videos");
  });

  it("takes an upload through the storage gateway and processes it to completed", async () => {
    const workspace = JSON.parse(
      (await admin(["workspaces", "create", "--name", "Uploads", "--alpha-opt-in"])).stdout,
    );
    const { key } = JSON.parse(
      (await admin(["keys", "create", "--workspace", workspace.id])).stdout,
    );
    const api = apiClient(service, key);
    const bytes = fixture("talk.mp4");
    const created = await api.fetch("POST", "/videos", {
      filename: "talk.mp4",
      file_size: bytes.length,
    });
    expect(created.status).toBe(201);
    const session = await created.json();
    // The local adapters sign for their storage gateway; the production ones for R2's S3 API,
    // here its simulator on the same origin.
    expect(
      session.target.url.startsWith(`${baseUrl}${ADAPTERS === "local" ? "/storage/" : "/__r2/"}`),
    ).toBe(true);
    const put = await fetch(session.target.url, {
      method: "PUT",
      headers: session.target.headers,
      body: bytes,
    });
    expect(put.status).toBe(200);
    expect(put.headers.get("etag")).toBeTruthy();
    const complete = await api.fetch("POST", `/videos/${session.video_id}/upload/complete`, {});
    expect(complete.status).toBe(200);
    const video = await waitForFinal(api, `/videos/${session.video_id}`, 90_000);
    expect(video).toMatchObject({ status: "completed", duration: 24, frame_count: 600 });
    const thumbnail = await fetch(video.thumbnail_url);
    expect(thumbnail.status).toBe(200);
    // A frame of the video where one can be taken (production), else a drawn cover.
    expect(thumbnail.headers.get("content-type")).toMatch(/^image\/(png|jpeg)$/);

    const search = (await api.call("POST", "/search", { query: '"loading dock"' })).body;
    expect(search.data[0]).toMatchObject({ video_id: session.video_id });

    const profile = (await api.call("POST", "/profiles", vestsProfile())).body;
    const accepted = await api.call("POST", "/runs", {
      source_ids: [session.video_id],
      profile_id: profile.id,
      formats: ["markdown"],
    });
    expect(accepted.status).toBe(202);
    const run = await waitForFinal(api, `/runs/${accepted.body.id}`, 90_000);
    expect(run.status).toBe("completed");
    const answers = (await api.call("GET", `/runs/${run.id}/answers`)).body;
    expect(answers.data[0], JSON.stringify(answers.data[0])).toMatchObject({
      key: "vests",
      result_state: "found",
    });
    const reports: { data: { content: string }[] } = await poll(
      async () => (await api.call("GET", `/reports?run_id=${run.id}&expand[]=content`)).body,
      (read) => read.data.length > 0,
      { ms: 10_000, everyMs: 200 },
    );
    expect(reports.data[0]?.content).toContain("Pass");
    uploaded = { videoId: session.video_id, api };
  });

  it("reviews that video against a CSV-imported rulebook in a workflow run, with findings and a report", async () => {
    if (!uploaded) throw new Error("the upload test did not finish");
    const { videoId, api } = uploaded;
    const call = api.call.bind(api);
    // Semicolons, a quoted cell with a doubled quote and CRLF line ends, as spreadsheets write.
    const csv = [
      "Rule ID;Title;Description;Owner",
      "dock;Loading dock closing time;The loading dock closes at six pm;Safety",
      'hats;Hard hats;"Everyone on the floor wears a ""hard hat""";Site',
    ].join("\r\n");
    const preview = await fetch(`${api.root}/rulebooks/csv-imports/preview`, {
      method: "POST",
      headers: { ...api.headers, "content-type": "text/csv" },
      body: csv,
    });
    expect(preview.status).toBe(201);
    const session = await preview.json();
    expect(session).toMatchObject({ row_count: 2, errors: [] });
    const imported = await call("POST", "/rulebooks/csv-imports", {
      session_id: session.session_id,
      default_rulebook_name: "Floor safety",
      mapping: {
        rule_id: "Rule ID",
        rule_title: "Title",
        rule_description: "Description",
        additional_description_columns: ["Owner"],
      },
    });
    expect(imported.status).toBe(201);
    const rulebook = imported.body.rulebooks[0];
    expect(rulebook.rules.map((rule: { id: string }) => rule.id)).toEqual(["dock", "hats"]);
    expect(rulebook.rules[1].description).toBe(
      'Everyone on the floor wears a "hard hat"\nOwner: Site',
    );

    const workflow = await call("POST", "/workflows", {
      name: "Floor review",
      playbook: "Judge only what the video shows or says.",
      rulebook_id: rulebook.id,
      source_ids: [videoId],
    });
    expect(workflow.status).toBe(201);
    const accepted = await call("POST", "/runs", {
      kind: "workflow",
      workflow_id: workflow.body.id,
    });
    expect(accepted.status).toBe(202);
    const run = await waitForFinal(api, `/runs/${accepted.body.id}`, 30_000);
    expect(run).toMatchObject({ kind: "workflow", status: "completed" });
    expect(run.workflow.report_id).toMatch(/^rep_/);

    const findings = (await call("GET", `/findings?run_id=${run.id}`)).body.data;
    expect(findings).toHaveLength(2);
    const byRule = new Map(findings.map((f: { rule_id: string }) => [f.rule_id, f]));
    const dock = (await call("GET", `/findings/${(byRule.get("dock") as { id: string }).id}`)).body;
    expect(dock, JSON.stringify(dock)).toMatchObject({
      video_id: videoId,
      result_state: "found",
      type: "requirement_met",
      rule_reference: `${rulebook.id}/dock@1`,
    });
    expect(dock.evidence.length).toBeGreaterThan(0);
    for (const span of dock.evidence) {
      expect(span.start_time).toBeGreaterThanOrEqual(0);
      expect(span.end_time).toBeLessThanOrEqual(24);
      const clip = await fetch(span.clip_url, { headers: { range: "bytes=0-99" } });
      expect([200, 206]).toContain(clip.status);
      await clip.arrayBuffer();
    }
    const count = (state: string) =>
      findings.filter((f: { result_state: string }) => f.result_state === state).length;
    const said = (
      [
        ["found", "found"],
        ["not_found", "not found"],
        ["uncertain", "uncertain"],
        ["not_checked", "not checked"],
      ] as const
    )
      .filter(([state]) => count(state) > 0)
      .map(([state, words]) => `${count(state)} ${words}`);
    expect(run.workflow.summary).toBe(`${said.join(", ")} over 1 video`);
    const found = (await call("GET", `/findings?run_id=${run.id}&result_state=found`)).body.data;
    expect(found.map((f: { id: string }) => f.id)).toContain(dock.id);

    const review = await call("POST", `/findings/${dock.id}/review`, {
      status: "confirmed",
      note: "Seen on site.",
    });
    expect(review.status).toBe(200);
    expect(review.body).toMatchObject({ status: "confirmed", result_state: "found" });

    const reports = (await call("GET", `/reports?run_id=${run.id}`)).body.data;
    expect(reports.map((r: { format: string }) => r.format).sort()).toEqual(["json", "markdown"]);
    const markdown = await api.fetch("GET", `/reports/${run.workflow.report_id}?expand[]=content`);
    expect(markdown.status).toBe(200);
  });

  it("answers the next request on a keep-alive connection after refusing an oversized body", async () => {
    const oversized = 2 * 1024 * 1024;
    for (const first of [
      chunkedPost("/api/v1alpha1/profiles", oversized),
      `POST /api/v1alpha1/profiles HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${oversized}\r\n\r\n${"x".repeat(oversized)}`,
    ]) {
      const statuses = await exchangeOnOneConnection(baseUrl, [
        first,
        smallPost("/api/v1alpha1/profiles", "{}"),
      ]);
      // The second answer is the API's own 401 (no key), not wrangler's 503.
      expect(statuses).toEqual([413, 401]);
    }
  });

  it("keeps no trace of each request in the state folder, only the service's data", () => {
    // wrangler's local trace store would grow by every request the tests above made.
    const kept = readdirSync(path.join(stateDir, "v3"));
    expect(kept).toEqual(expect.arrayContaining(["d1", "do", "r2"]));
    expect(kept).not.toContain("observability");
  });

  it("says on start which adapters run, what they hear and see, and where the playground is", async () => {
    await poll(
      () => service.output,
      (output) => output.includes("Reads:"),
      { ms: 10_000, everyMs: 100 },
    );
    expect(service.output).toContain(`Playground: ${service.baseUrl}/playground`);
    // What it hears and sees is what the service itself reports on /healthz.
    const { understanding } = (await (await fetch(`${service.baseUrl}/healthz`)).json()) as {
      understanding: { sees: string; on_screen_text: boolean };
    };
    expect(service.output).toContain(`Sees:       ${understanding.sees}`);
    if (ADAPTERS === "local") {
      expect(service.output).toContain("Adapters:   local");
      expect(service.output).not.toContain("Simulated:");
      expect(service.output).toMatch(/Hears: +caption and subtitle tracks in the file/);
      // The screen reader starts beside the service unless its native parts cannot load.
      expect(service.output).toContain(
        understanding.on_screen_text
          ? "Sees:       text written on screen; pictures are not looked at"
          : "Sees:       nothing: pictures are not looked at and text written on screen is not read",
      );
      expect(service.output).toMatch(/Captions: +send a \.vtt or \.srt/);
    } else {
      expect(service.output).toContain("Adapters:   production, over local simulators");
      expect(service.output).toMatch(/Simulated: .*\(ai\).*\(media\).*\(vectorize\).*\(r2\)/);
      expect(service.output).toContain("SIMULATE_VISION=");
      expect(service.output).toMatch(/Hears: +recognised speech/);
    }
  });

  it("never prints the admin token or keys", () => {
    expect(service.output).not.toContain(ADMIN_TOKEN);
    expect(service.output).not.toMatch(/vas_[0-9a-f]{48}/);
  });
});
