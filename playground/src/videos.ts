import type { Api, Page } from "./api";
import { byId, h, pause, show } from "./dom";

/** A video as the API answers it (the fields this page shows). */
export interface Video {
  id: string;
  filename: string;
  status: "queued" | "processing" | "completed" | "failed";
  progress?: number;
  thumbnail_url?: string;
  error_message?: string;
  /** What processing understood of it: a sentence, and a warning when nothing was. */
  media?: { understood?: { summary: string; warning?: string } };
}

/** What was understood of a video, and its warning, as text elements (none before processing). */
export function understood(video: Video): HTMLElement[] {
  const said = video.media?.understood;
  if (said === undefined) return [];
  return [
    h("span", { class: "understood", text: said.summary }),
    ...(said.warning === undefined ? [] : [h("span", { class: "warning", text: said.warning })]),
  ];
}

/** How many videos the list shows (newest first). */
const SHOWN = 12;

function card(video: Video, remove: (video: Video) => void): HTMLElement {
  const picture = video.thumbnail_url
    ? h("img", { src: video.thumbnail_url, alt: `Thumbnail of ${video.filename}` })
    : h("div", { class: "no-thumb", text: "no thumbnail" });
  const button = h("button", { type: "button", class: "delete", text: "Delete" });
  button.addEventListener("click", () => remove(video));
  return h(
    "li",
    { class: "video", "data-video-id": video.id, "data-status": video.status },
    picture,
    h("span", { class: "name", text: video.filename }),
    h("span", { class: "status", text: video.status }),
    ...understood(video),
    button,
  );
}

/**
 * Lists the newest videos with their thumbnails (the list leaves thumbnails out, so each is
 * read once), each with a delete button calling `remove`, and answers them, so the run form
 * can offer the completed ones.
 */
export async function listVideos(api: Api, remove: (video: Video) => void): Promise<Video[]> {
  const page = await api.json<Page<Video>>("GET", `/videos?limit=${SHOWN}`);
  const videos = await Promise.all(
    page.data.map((video) => api.json<Video>("GET", `/videos/${video.id}`)),
  );
  const list = byId("videos");
  show(
    list,
    ...(videos.length === 0 ? [h("li", { text: "No videos yet: upload one." })] : []),
    ...videos.map((video) => card(video, remove)),
  );
  return videos;
}

/**
 * Polls the video until processing ends, showing its status and progress, then what was
 * understood of it and its warning; answers it.
 */
export async function watchVideo(api: Api, id: string): Promise<Video> {
  const status = byId("processing-status");
  const bar = byId<HTMLProgressElement>("processing-progress");
  const said = byId("processing-understood");
  show(said);
  for (;;) {
    const video = await api.json<Video>("GET", `/videos/${id}`);
    bar.value = video.status === "completed" ? 100 : (video.progress ?? 0);
    status.textContent =
      video.status === "failed"
        ? `failed: ${video.error_message ?? "see GET /videos/{id}"}`
        : video.status;
    if (video.status === "completed" || video.status === "failed") {
      show(said, ...understood(video));
      return video;
    }
    await pause(1000);
  }
}
