import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import type { StoredObject, StoredPart, UploadStorage } from "../../../src/ports/storage/port";
import {
  CHUNK_BYTES,
  type Receipts,
  recordParts,
  type SessionState,
  type UploadDeps,
} from "../../../src/services/uploads";

const PARTS = 4;
const FILE_SIZE = 3 * CHUNK_BYTES + 100;
const NOW = Date.parse("2026-01-01T00:00:00Z");

/** Storage that holds a fixed set of parts; anything else the receipts never need. */
class HeldParts implements UploadStorage {
  constructor(private readonly held: StoredPart[]) {}
  async listParts(): Promise<StoredPart[]> {
    return this.held;
  }
  createMultipart(): Promise<string> {
    throw new Error("not used");
  }
  presignPut(): never {
    throw new Error("not used");
  }
  presignPart(): never {
    throw new Error("not used");
  }
  completeMultipart(): Promise<number> {
    throw new Error("not used");
  }
  abortMultipart(): Promise<void> {
    throw new Error("not used");
  }
  headObject(): Promise<StoredObject | null> {
    throw new Error("not used");
  }
  copyObject(): Promise<StoredObject | null> {
    throw new Error("not used");
  }
  deleteObject(): Promise<void> {
    throw new Error("not used");
  }
  presignGet(): Promise<string> {
    throw new Error("not used");
  }
}

function session(parts: Receipts): SessionState {
  return {
    session: {
      videoId: "vid_prop",
      workspaceId: "ws_prop",
      objectKey: "videos/vid_prop/source",
      filename: "prop.mp4",
      contentType: "video/mp4",
      fileSize: FILE_SIZE,
      strategy: "multipart",
      chunkSize: CHUNK_BYTES,
      totalChunks: PARTS,
      uploadId: "up-prop",
      state: "open",
      createdAt: NOW,
      expiresAt: NOW + 3600_000,
      verifiedBytes: 0,
      processingQueued: false,
    },
    parts,
  };
}

const partNumber = fc.integer({ min: 1, max: PARTS });
const etag = fc.constantFrom("a", "b", "c");
const receipts = fc
  .dictionary(
    partNumber.map(String),
    fc.record({ etag, size: fc.option(fc.constant(CHUNK_BYTES), { nil: null }) }),
  )
  .map((byKey) => byKey as unknown as Receipts);
const held = fc
  .uniqueArray(fc.record({ partNumber, etag, size: fc.constant(CHUNK_BYTES) }), {
    selector: (part) => part.partNumber,
  })
  .map((parts) => parts.sort((a, b) => a.partNumber - b.partNumber));
const reported = fc.array(
  fc.record({ part_number: fc.integer({ min: 1, max: PARTS + 1 }), etag }),
  { minLength: 1, maxLength: 6 },
);

describe("recordParts (service function) over any receipts and any stored parts", () => {
  it("records all or nothing, and replaces a receipt only with an ETag storage holds", async () => {
    await fc.assert(
      fc.asyncProperty(receipts, held, reported, async (before, stored, report) => {
        const deps: UploadDeps = {
          db: database(env.DB),
          ports: { storage: new HeldParts(stored) },
          queues: { processing: env.PROCESSING_QUEUE },
          clock: { now: () => NOW },
        };
        const step = await recordParts(deps, session(before), "ws_prop", report);
        if (!step.result.ok) {
          expect(step.next).toBeNull();
          return;
        }
        const after = step.next?.parts ?? before;
        expect(step.result.parts).toEqual(after);
        for (const part of report) expect(after[part.part_number]?.etag).toBe(part.etag);
        for (const [key, receipt] of Object.entries(after)) {
          const number = Number(key);
          const previous = before[number];
          if (!report.some((part) => part.part_number === number)) {
            expect(receipt).toEqual(previous);
          } else if (previous && previous.etag !== receipt.etag) {
            const confirmed = stored.find((part) => part.partNumber === number);
            expect(confirmed?.etag).toBe(receipt.etag);
            expect(receipt.size).toBe(confirmed?.size);
          }
        }
        // Sending the same receipts again changes nothing.
        const again = await recordParts(deps, step.next ?? session(before), "ws_prop", report);
        expect(again.next).toBeNull();
        expect(again.result).toEqual(step.result);
      }),
      { numRuns: 200 },
    );
  });
});
