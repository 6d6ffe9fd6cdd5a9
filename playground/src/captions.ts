import type { Api } from "./api";
import { byId, h, show } from "./dom";
import type { Video } from "./videos";
import { watchVideo } from "./videos";

interface HeardTrack {
  language: string;
  origin: string;
  source: string;
  seconds: number;
}

/** The content type the service reads a caption file as, from its name. */
function captionType(file: File): string | null {
  const name = file.name.toLowerCase();
  if (name.endsWith(".vtt")) return "text/vtt";
  if (name.endsWith(".srt")) return "application/x-subrip";
  return null;
}

/** Offers the completed videos to the captions form. */
export function fillCaptionsForm(videos: Video[]): void {
  const select = byId<HTMLSelectElement>("captions-video");
  const keep = select.value;
  const completed = videos.filter((video) => video.status === "completed");
  show(select, ...completed.map((v) => h("option", { value: v.id, text: v.filename })));
  if (completed.some((video) => video.id === keep)) select.value = keep;
}

/** Lists the languages heard in the video, with where each came from. */
export async function listCaptions(api: Api, videoId: string): Promise<void> {
  const { data } = await api.json<{ data: HeardTrack[] }>("GET", `/videos/${videoId}/captions`);
  show(
    byId("captions"),
    ...(data.length === 0 ? [h("li", { text: "Nothing heard in this video yet." })] : []),
    ...data.map((track) =>
      h("li", { text: `${track.language}: ${track.origin} (${track.source}), ${track.seconds} s` }),
    ),
  );
}

/** Sends a .vtt or .srt file for the video, waits for its re-index and lists what is heard. */
export async function uploadCaptions(
  api: Api,
  videoId: string,
  language: string,
  file: File | undefined,
): Promise<void> {
  const status = byId("captions-status");
  const type = file ? captionType(file) : null;
  if (file === undefined || type === null) {
    status.textContent = "Choose a .vtt or .srt file first.";
    return;
  }
  const { cue_count } = await api.putText<{ cue_count: number }>(
    `/videos/${videoId}/captions/${encodeURIComponent(language)}`,
    type,
    await file.text(),
  );
  status.textContent = `${cue_count} cues kept; re-indexing the video…`;
  const video = await watchVideo(api, videoId);
  status.textContent = `${cue_count} cues kept; the video is ${video.status}.`;
  await listCaptions(api, videoId);
}
