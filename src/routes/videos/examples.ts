import type { VideoDto } from "../../services/presenters/video";

/** A video processing finished with: measured, covered, searchable. */
export const COMPLETED_VIDEO_EXAMPLE: VideoDto = {
  id: "vid_01jd3m6t8y0c7x4k2n9q5r1s3v",
  filename: "warehouse-walkthrough.mp4",
  status: "completed",
  progress: 100,
  duration: 61.44,
  frame_count: 1536,
  source: "upload",
  thumbnail_url:
    "http://127.0.0.1:8787/media/videos/vid_01jd3m6t8y0c7x4k2n9q5r1s3v/thumbnail.jpg?expires=1763721000&signature=…",
  media: {
    coverage: {
      transcript: [
        {
          origin: "speech",
          source: "speech:0",
          language: "en",
          seconds: 60.1,
          share: 0.978,
        },
      ],
      scene: { seconds: 61.44, share: 1 },
      ocr: { seconds: 61.44, share: 1 },
    },
    understood: {
      heard_seconds: 60.1,
      seen_seconds: 61.4,
      heard_from: ["speech:0"],
      summary:
        "Heard 60.1 s of 61.4 s from recognised speech. Saw 61.4 s of 61.4 s through described frames.",
    },
    limitations: ["scene-sampled-one-frame-per-segment"],
  },
  request_id: "4bf92f35-77b3-4da6-a3ce-929d0e0e4736",
  usage: {
    processed_seconds: 61.44,
    heard_seconds: 60.1,
    seen_seconds: 61.44,
    models: [
      { model: "@cf/baai/bge-m3", calls: 1, input_tokens: 0, output_tokens: 0, audio_seconds: 0 },
      {
        model: "@cf/meta/llama-4-scout-17b-16e-instruct",
        calls: 16,
        input_tokens: 3904,
        output_tokens: 1120,
        audio_seconds: 0,
      },
      {
        model: "@cf/openai/whisper-large-v3-turbo",
        calls: 3,
        input_tokens: 0,
        output_tokens: 0,
        audio_seconds: 61.44,
      },
    ],
  },
  created_at: "2026-11-21T09:30:00.000Z",
  updated_at: "2026-11-21T09:31:12.000Z",
};

/** A video the moment its upload completes: waiting for processing, nothing measured yet. */
export const QUEUED_VIDEO_EXAMPLE: VideoDto = {
  id: "vid_01jd3m6t8y0c7x4k2n9q5r1s3v",
  filename: "warehouse-walkthrough.mp4",
  status: "queued",
  progress: 0,
  source: "upload",
  request_id: "4bf92f35-77b3-4da6-a3ce-929d0e0e4736",
  created_at: "2026-11-21T09:30:00.000Z",
  updated_at: "2026-11-21T09:30:41.000Z",
};
