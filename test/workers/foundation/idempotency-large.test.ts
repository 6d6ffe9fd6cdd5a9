import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { D1_LIMITS } from "../../../src/db/limits";
import { ownerOfKey } from "../../../src/domain/rulebooks";
import { BODY_CHUNK_CHARS, bodyChunks } from "../../../src/durable-objects/idempotency-key";
import { idempotencyScope } from "../../../src/middleware/idempotency";
import { expectJson, newTenant } from "../../helpers/harness";
import { type ImportResult, preview } from "../rulebooks/csv";

const encoder = new TextEncoder();

/** Bytes of every value the key's object stores, as UTF-8 (what the 2 MB limit counts). */
async function storedValueBytes(name: string): Promise<number[]> {
  return runInDurableObject(env.IDEMPOTENCY_KEYS.getByName(name), async (_instance, state) => {
    const values = await state.storage.list();
    return [...values.values()].map(
      (value) => encoder.encode(typeof value === "string" ? value : JSON.stringify(value)).length,
    );
  });
}

describe("Idempotency-Key with a response larger than one stored value", () => {
  it("keeps a 5 MB body in values under 2 MB each and replays it whole", async () => {
    const name = `ws_large\nuser_large\n${crypto.randomUUID()}`;
    const stub = env.IDEMPOTENCY_KEYS.getByName(name);
    const begun = await stub.begin("fingerprint");
    if (begun.state !== "proceed") throw new Error(`expected to proceed, got ${begun.state}`);
    const body = `${"é".repeat(1_500_000)}😀${"x".repeat(2_000_000)}`;
    await stub.complete(begun.token, { status: 201, headers: { "content-type": "x" }, body });
    const again = await stub.begin("fingerprint");
    expect(again.state).toBe("replay");
    if (again.state === "replay") {
      expect(again.response.body === body).toBe(true);
      expect(again.response.status).toBe(201);
    }
    const sizes = await storedValueBytes(name);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(D1_LIMITS.valueBytes);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeGreaterThan(encoder.encode(body).length);
  });

  it("splits any body into chunks that join back to it, never inside a surrogate pair", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 40 }),
        fc.integer({ min: 0, max: 3 }),
        (piece, copies) => {
          const body = `${"a".repeat(BODY_CHUNK_CHARS - 1)}😀${piece.repeat(copies)}`;
          const chunks = bodyChunks(body);
          expect(chunks.join("")).toBe(body);
          for (const chunk of chunks) {
            expect(chunk.length).toBeLessThanOrEqual(BODY_CHUNK_CHARS);
            const last = chunk.charCodeAt(chunk.length - 1);
            if (chunk !== chunks.at(-1)) expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
          }
        },
      ),
      { numRuns: 8 },
    );
  });

  it("replays a CSV import of about 5 MiB, answering the same rulebooks", async () => {
    const { api, workspaceId, keyId } = await newTenant(["MANAGE_RULEBOOKS"]);
    const filler = "é".repeat(240);
    const lines = ["id,title,description"];
    for (let i = 1; i <= 10_000; i++) lines.push(`r${i},Rule ${i},${filler}`);
    const csv = lines.join("\n");
    expect(encoder.encode(csv).length).toBeGreaterThan(4.5 * 1024 * 1024);
    const { session_id } = await preview(api, csv);
    const body = {
      session_id,
      default_rulebook_name: "Big",
      mapping: { rule_title: "title", rule_description: "description" },
    };
    const headers = { "Idempotency-Key": "big-import" };
    const first = await api.post("/rulebooks/csv-imports", body, headers);
    const firstText = await first.clone().text();
    expect(encoder.encode(firstText).length).toBeGreaterThan(2 * D1_LIMITS.valueBytes);
    const created = await expectJson<ImportResult>(first, 201);
    expect(created.rulebooks[0]?.rules).toHaveLength(10_000);
    const again = await api.post("/rulebooks/csv-imports", body, headers);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await again.text()) === firstText).toBe(true);
    const sizes = await storedValueBytes(
      idempotencyScope(workspaceId, ownerOfKey(keyId), "big-import"),
    );
    expect(Math.max(...sizes)).toBeLessThanOrEqual(D1_LIMITS.valueBytes);
  }, 60_000);
});
