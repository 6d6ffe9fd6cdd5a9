import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../../src/env";
import { createPorts } from "../../../src/ports";
import { LocalHashEmbedder } from "../../../src/ports/embedder/local-hash";
import { WorkersAiEmbedder } from "../../../src/ports/embedder/workers-ai";
import { LocalMediaUnderstanding } from "../../../src/ports/media-understanding/local";
import { WorkersAiMediaUnderstanding } from "../../../src/ports/media-understanding/workers-ai";
import { LocalGatewayStorage } from "../../../src/ports/storage/local-gateway/adapter";
import { R2S3Storage } from "../../../src/ports/storage/r2-s3";
import { LocalVectorIndexAdapter } from "../../../src/ports/vector-index/local-do";
import { VectorizeIndex } from "../../../src/ports/vector-index/vectorize";

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
