import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../../src/env";
import { createPorts } from "../../../src/ports";
import { LocalHashEmbedder } from "../../../src/ports/embedder/local-hash";
import { WorkersAiEmbedder } from "../../../src/ports/embedder/workers-ai";
import { LocalMediaUnderstanding } from "../../../src/ports/media-understanding/local";
import {
  WORKERS_AI_ENGINE_ID,
  WorkersAiMediaUnderstanding,
} from "../../../src/ports/media-understanding/workers-ai";
import { LocalGatewayStorage } from "../../../src/ports/storage/local-gateway/adapter";
import { R2S3Storage } from "../../../src/ports/storage/r2-s3";
import { LocalVectorIndexAdapter } from "../../../src/ports/vector-index/local-do";
import { VectorizeIndex } from "../../../src/ports/vector-index/vectorize";
import { expectJson, newTenant, ORIGIN, workerFetch } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";

const production: Env = {
  ...env,
  DEPLOYMENT: "production",
  R2_ACCOUNT_ID: "acct",
  R2_BUCKET_NAME: "media",
  R2_ACCESS_KEY_ID: "id",
  R2_SECRET_ACCESS_KEY: "secret",
  AI: {} as Ai,
  VECTORIZE: {} as Vectorize,
  MEDIA: { input: () => ({}) } as unknown as NonNullable<Env["MEDIA"]>,
};

describe("createPorts chooses every adapter once, from DEPLOYMENT", () => {
  it("uses the local adapters locally", () => {
    const ports = createPorts({ ...env, DEPLOYMENT: "local" });
    expect(ports.storage).toBeInstanceOf(LocalGatewayStorage);
    expect(ports.understanding).toBeInstanceOf(LocalMediaUnderstanding);
    expect(ports.embedder).toBeInstanceOf(LocalHashEmbedder);
    expect(ports.vectorIndex).toBeInstanceOf(LocalVectorIndexAdapter);
    expect(ports.storageGateway).not.toBeNull();
  });

  it("uses R2 S3, Workers AI and Vectorize in production, with no gateway", () => {
    const ports = createPorts(production);
    expect(ports.storage).toBeInstanceOf(R2S3Storage);
    expect(ports.understanding).toBeInstanceOf(WorkersAiMediaUnderstanding);
    expect(ports.embedder).toBeInstanceOf(WorkersAiEmbedder);
    expect(ports.vectorIndex).toBeInstanceOf(VectorizeIndex);
    expect(ports.storageGateway).toBeNull();
  });

  it("refuses to start production without its configuration", () => {
    expect(() => createPorts({ ...production, R2_SECRET_ACCESS_KEY: undefined })).toThrow(
      /R2_SECRET_ACCESS_KEY/,
    );
    expect(() => createPorts({ ...production, VECTORIZE: undefined })).toThrow(/VECTORIZE/);
    expect(() => createPorts({ ...env, DEPLOYMENT: "staging" })).toThrow(/DEPLOYMENT/);
  });
});

describe("what the media engine hears and sees", () => {
  it("is declared for the local engine as what it reports on a video it processed", async () => {
    const { mediaAbilities } = createPorts({ ...env, DEPLOYMENT: "local" });
    const { api } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    // talk.mp4 has audio, pictures and captions: whatever the engine leaves out, it says.
    const video = await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id);
    const limitations = video.media?.limitations ?? [];
    expect(mediaAbilities.engine).toBe(new LocalMediaUnderstanding().engine);
    expect(mediaAbilities.speech).toBe(!limitations.includes("no-speech-recognition"));
    expect(mediaAbilities.pictures).toBe(!limitations.includes("no-visual-analysis"));
    expect(mediaAbilities.onScreenText).toBe(!limitations.includes("no-ocr"));
  });

  it("declares on-screen text read locally exactly when a screen reader runs", () => {
    const local: Env = { ...env, DEPLOYMENT: "local" };
    const reader = { SCREEN_READER_URL: "http://127.0.0.1:9", SCREEN_READER_SECRET: "s" };
    expect(createPorts({ ...local, ...reader }).mediaAbilities.onScreenText).toBe(true);
    const without = { SCREEN_READER_URL: undefined, SCREEN_READER_SECRET: undefined };
    expect(createPorts({ ...local, ...without }).mediaAbilities.onScreenText).toBe(false);
  });

  it("declares speech heard locally exactly when the screen reader also transcribes it", () => {
    const local: Env = { ...env, DEPLOYMENT: "local" };
    const reader = {
      SCREEN_READER_URL: "http://127.0.0.1:9",
      SCREEN_READER_SECRET: "s",
      SCREEN_READER_SPEECH: "silero-vad@5",
    };
    const speech = (extra: Partial<Env>) =>
      createPorts({ ...local, ...reader, ...extra }).mediaAbilities.speech;
    // Spans alone say where speech is, not what was said.
    expect(speech({ SCREEN_READER_TRANSCRIBES: undefined })).toBe(false);
    expect(speech({ SCREEN_READER_TRANSCRIBES: "true" })).toBe(true);
    // Transcription needs the spans it is sent for.
    expect(speech({ SCREEN_READER_TRANSCRIBES: "true", SCREEN_READER_SPEECH: undefined })).toBe(
      false,
    );
  });

  it("is declared for the production engine, which hears speech, describes frames and reads them", () => {
    expect(createPorts(production).mediaAbilities).toEqual({
      engine: WORKERS_AI_ENGINE_ID,
      speech: true,
      pictures: true,
      onScreenText: true,
    });
  });

  it("is what GET /healthz says, in words: the local engine hears captions, sees nothing", async () => {
    const health = await expectJson<{ understanding: Record<string, unknown> }>(
      await workerFetch(`${ORIGIN}/healthz`),
      200,
    );
    expect(health.understanding).toEqual({
      engine: new LocalMediaUnderstanding().engine,
      speech: false,
      pictures: false,
      on_screen_text: false,
      hears:
        "caption and subtitle tracks in the file and captions uploaded for it; speech is not recognised, so a video without captions is heard as silent",
      sees: "nothing: pictures are not looked at and text written on screen is not read",
      reads: "container tags (title, description, keywords, …) and the filename",
      search_kinds: ["transcript", "metadata", "tags", "filename"],
    });
  });
});
