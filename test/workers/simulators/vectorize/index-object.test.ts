import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { VectorizeSimulatorIndex } from "../../../../simulators/vectorize";
import { config } from "./world";

describe("VectorizeSimulatorIndex (the Durable Object class the app binds)", () => {
  it("keeps the index in its SQLite storage across calls and refuses a change of dimensions", async () => {
    const stub = env.LOCAL_INDEX.getByName(`vsim_object_${crypto.randomUUID()}`);
    await runInDurableObject(stub, (_instance, state) => {
      const object = new VectorizeSimulatorIndex(state, env);
      const settings = config({ visibilityDelayMs: 0 });
      const { mutationId } = object.mutate(settings, {
        kind: "upsert",
        vectors: [{ id: "a", values: [0, 0, 1, 0], namespace: "ws_1" }],
      });
      expect(object.describe(settings)).toMatchObject({
        vectorCount: 1,
        processedUpToMutation: mutationId,
      });
      const again = new VectorizeSimulatorIndex(state, env);
      expect(again.getByIds(settings, ["a"])).toEqual([
        { id: "a", namespace: "ws_1", values: [0, 0, 1, 0] },
      ]);
      expect(again.query(settings, [0, 0, 1, 0], { namespace: "ws_1" }).matches[0]).toMatchObject({
        id: "a",
      });
      expect(() => again.describe(config({ dimensions: 8 }))).toThrow(/created with 4 dimensions/);
    });
  });
});
