// The playground: paste a key, upload, watch processing, list, caption, search, run, read,
// review, read the usage.
// The key lives in this tab's session storage only and goes nowhere but this origin's API.
import { Api, ApiError } from "./api";
import { fillCaptionsForm, listCaptions, uploadCaptions } from "./captions";
import { byId } from "./dom";
import { fillRunForm, runProfile } from "./runs";
import { search } from "./search";
import { uploadFile } from "./upload";
import { showUsage } from "./usage";
import { listVideos, type Video, watchVideo } from "./videos";
import { fillWorkflowForm, runWorkflow } from "./workflows";

const KEY_SLOT = "vas-playground-key";
let api: Api | null = null;

function useKey(key: string): void {
  api = key === "" ? null : new Api(key);
  byId("key-state").textContent = api ? "Checking the key…" : "No key yet.";
  document.body.dataset.ready = "false";
}

/** Lists the videos with the key: says it is set only once the API accepted it. */
async function checkKey(client: Api): Promise<void> {
  const state = byId("key-state");
  try {
    await refresh(client);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      api = null;
      sessionStorage.removeItem(KEY_SLOT);
      state.textContent = `This key was refused (${error.message}). Paste the key npm start printed.`;
      return;
    }
    throw error;
  }
  state.textContent = "Key set for this tab.";
  document.body.dataset.ready = "true";
}

/** Runs `task` with the key, showing any failure in `statusId` rather than throwing. */
function guarded(statusId: string, task: (api: Api) => Promise<void>): void {
  const status = byId(statusId);
  if (api === null) {
    status.textContent = "Paste an API key first.";
    return;
  }
  task(api).catch((error: unknown) => {
    status.textContent = error instanceof Error ? error.message : String(error);
  });
}

/** Deletes a video (key with DELETE_VIDEOS) when its button is clicked, then lists again. */
function removeVideo(video: Video): void {
  guarded("videos-status", async (client) => {
    await client.delete(`/videos/${video.id}`);
    byId("videos-status").textContent = `Deleted ${video.filename}; its data is being erased.`;
    await refresh(client);
  });
}

async function refresh(client: Api): Promise<void> {
  const videos = await listVideos(client, removeVideo);
  fillCaptionsForm(videos);
  await fillRunForm(client, videos);
  await fillWorkflowForm(client);
}

byId<HTMLFormElement>("key-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = byId<HTMLInputElement>("key");
  sessionStorage.setItem(KEY_SLOT, input.value.trim());
  input.value = "";
  useKey(sessionStorage.getItem(KEY_SLOT) ?? "");
  guarded("videos-status", checkKey);
});

byId<HTMLFormElement>("upload-form").addEventListener("submit", (event) => {
  event.preventDefault();
  guarded("upload-status", async (client) => {
    const file = byId<HTMLInputElement>("file").files?.[0];
    const status = byId("upload-status");
    if (file === undefined) {
      status.textContent = "Choose a file first.";
      return;
    }
    const bar = byId<HTMLProgressElement>("upload-progress");
    const id = await uploadFile(client, file, (sent, total) => {
      bar.value = total === 0 ? 100 : Math.round((sent / total) * 100);
      status.textContent = `${sent} of ${total} bytes sent`;
    });
    status.textContent = `Uploaded as ${id}`;
    await watchVideo(client, id);
    await refresh(client);
  });
});

byId("refresh-videos").addEventListener("click", () => guarded("videos-status", refresh));

byId<HTMLFormElement>("search-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const query = byId<HTMLInputElement>("query").value;
  guarded("search-status", (client) => search(client, query));
});

byId<HTMLFormElement>("captions-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const video = byId<HTMLSelectElement>("captions-video").value;
  const language = byId<HTMLInputElement>("captions-language").value.trim();
  const file = byId<HTMLInputElement>("captions-file").files?.[0];
  guarded("captions-status", (client) => uploadCaptions(client, video, language, file));
});

byId("captions-video").addEventListener("change", () => {
  const video = byId<HTMLSelectElement>("captions-video").value;
  guarded("captions-status", (client) => listCaptions(client, video));
});

byId<HTMLFormElement>("run-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const profile = byId<HTMLSelectElement>("run-profile").value;
  const video = byId<HTMLSelectElement>("run-video").value;
  guarded("run-status", (client) => runProfile(client, profile, video));
});

byId<HTMLFormElement>("workflow-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const workflow = byId<HTMLSelectElement>("workflow").value;
  guarded("workflow-status", (client) => runWorkflow(client, workflow));
});

byId<HTMLFormElement>("usage-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const from = byId<HTMLInputElement>("usage-from").value;
  const to = byId<HTMLInputElement>("usage-to").value;
  guarded("usage-status", (client) => showUsage(client, from, to));
});

useKey(sessionStorage.getItem(KEY_SLOT) ?? "");
if (api) guarded("videos-status", checkKey);
