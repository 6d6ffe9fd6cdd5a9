import type { Api, Page } from "./api";
import { byId, h, pause, show } from "./dom";
import { renderMarkdown } from "./markdown";
import type { Video } from "./videos";

interface Profile {
  id: string;
  name: string;
}

interface Run {
  id: string;
  status: "queued" | "processing" | "completed" | "failed" | "canceled";
}

function options(select: HTMLSelectElement, items: { value: string; label: string }[]): void {
  const keep = select.value;
  show(select, ...items.map((item) => h("option", { value: item.value, text: item.label })));
  if (items.some((item) => item.value === keep)) select.value = keep;
}

/** Offers the workspace's profiles and its completed videos to the run form. */
export async function fillRunForm(api: Api, videos: Video[]): Promise<void> {
  const profiles = await api.json<Page<Profile>>("GET", "/profiles?limit=100");
  options(
    byId<HTMLSelectElement>("run-profile"),
    profiles.data.map((profile) => ({ value: profile.id, label: profile.name })),
  );
  byId("run-status").textContent =
    profiles.data.length === 0
      ? "No profile yet: create one with POST /profiles (the README's walk-through, or /docs), then Refresh."
      : "";
  options(
    byId<HTMLSelectElement>("run-video"),
    videos
      .filter((video) => video.status === "completed")
      .map((video) => ({ value: video.id, label: video.filename })),
  );
}

/** Runs the profile over the video, waits for the run and renders its Markdown report. */
export async function runProfile(api: Api, profileId: string, videoId: string): Promise<void> {
  const status = byId("run-status");
  const report = byId("report");
  show(report);
  let run = await api.json<Run>("POST", "/runs", {
    source_ids: [videoId],
    profile_id: profileId,
    formats: ["markdown"],
  });
  while (run.status === "queued" || run.status === "processing") {
    status.textContent = `run ${run.id}: ${run.status}`;
    await pause(1000);
    run = await api.json<Run>("GET", `/runs/${run.id}`);
  }
  status.textContent = `run ${run.id}: ${run.status}`;
  if (run.status !== "completed") return;
  const reports = await api.json<Page<{ id: string; format: string }>>(
    "GET",
    `/reports?run_id=${run.id}`,
  );
  const markdown = reports.data.find((item) => item.format === "markdown");
  if (markdown === undefined) {
    status.textContent = `run ${run.id}: completed, but no Markdown report was made`;
    return;
  }
  const source = await api.text(`/reports/${markdown.id}`, "text/markdown");
  // Safe to insert: renderMarkdown escapes every tag of the source (markdown.ts).
  report.innerHTML = renderMarkdown(source);
}
