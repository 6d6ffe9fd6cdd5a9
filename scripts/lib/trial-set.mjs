// The committed trial set (test/fixtures/media/make-known-fixtures.sh): each file is what some
// customer uploads and the platform's docs leave open, with speech and pictures but no
// captions and no tags. Codecs are named as the service's probe names them (mediabunny).

/** One trial file: where it is, what it is, and the word spoken in it (shown nowhere). */
export const TRIAL_SET = [
  {
    name: "phone-hevc",
    file: "test/fixtures/media/trial-phone-hevc.mov",
    what: "a phone's recording: QuickTime, HEVC (hvc1), stereo AAC, shown upright",
    container: "mov",
    video: "hevc",
    audio: "aac",
    language: "en",
    word: "upright",
  },
  {
    name: "browser-webm",
    file: "test/fixtures/media/trial-browser.webm",
    what: "a browser's MediaRecorder: live WebM without Cues, VP9 and Opus",
    container: "webm",
    video: "vp9",
    audio: "opus",
    language: "en",
    word: "microphone",
  },
  {
    name: "german-h264",
    file: "test/fixtures/media/trial-german.mp4",
    what: "H.264 and AAC with German speech and no caption track",
    container: "mp4",
    video: "avc",
    audio: "aac",
    language: "de",
    word: "Gabelstapler",
  },
  {
    name: "av1",
    file: "test/fixtures/media/trial-av1.mp4",
    what: "AV1 and AAC in MP4, as newer phones and screen recorders write",
    container: "mp4",
    video: "av1",
    audio: "aac",
    language: "en",
    word: "newest",
  },
  {
    name: "long",
    file: "test/fixtures/media/trial-long.mp4",
    what: "15 minutes of H.264 and AAC: 30 audio windows and 225 frames",
    container: "mp4",
    video: "avc",
    audio: "aac",
    language: "en",
    word: "halfway",
  },
];

/** The windowing the production engine documents (docs/media-understanding.md, Windows). */
export const WINDOWING = { audioWindowSeconds: 30, frameIntervalSeconds: 4 };

/**
 * The model and media calls processing a file of `duration` plans: one Whisper call per audio
 * window, one frame extraction and one vision call per 4 s cell. Retries, refused calls and
 * the embeddings of search indexing are not in it.
 */
export function plannedCalls(duration, { audio, video }) {
  const d = Number.isFinite(duration) && duration > 0 ? duration : 0;
  const frames = video ? Math.ceil(d / WINDOWING.frameIntervalSeconds) : 0;
  return {
    whisper: audio ? Math.ceil(d / WINDOWING.audioWindowSeconds) : 0,
    media_transformations: frames,
    vision: frames,
  };
}
