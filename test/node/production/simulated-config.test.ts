import path from "node:path";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { type WebhookVars, webhookConfig } from "../../../src/services/webhooks/config";
import { checkWebhookUrl } from "../../../src/services/webhooks/url-guard";

const CONFIG = path.resolve(import.meta.dirname, "../../../wrangler.toml");

/** wrangler's own reading of the configuration for `env` (undefined: the top level). */
function resolvedConfig(configPath: string, env: string | undefined) {
  return unstable_readConfig({ config: configPath, env }, { hideWarnings: true });
}

/** The naming fields of a binding entry, whichever kind it is. */
type Named = Record<string, unknown>;

/** Every binding of a resolved configuration, by kind, as comparable strings. */
function bindings(config: ReturnType<typeof resolvedConfig>) {
  return {
    d1: config.d1_databases.map((d: Named) => `${d.binding}:${d.database_name}`),
    r2: config.r2_buckets.map((b: Named) => `${b.binding}:${b.bucket_name}`),
    objects: config.durable_objects.bindings.map((b: Named) => `${b.name}:${b.class_name}`),
    producers: (config.queues.producers ?? []).map((p: Named) => `${p.binding}:${p.queue}`),
    consumers: (config.queues.consumers ?? []).map((c: object) => JSON.stringify(c)),
    migrations: config.migrations.map((m: object) => JSON.stringify(m)),
  };
}

describe("the simulated configuration (ADAPTERS=production)", () => {
  it("binds what the local configuration binds, plus the simulated Vectorize index", async () => {
    const local = bindings(resolvedConfig(CONFIG, undefined));
    const simulated = bindings(resolvedConfig(CONFIG, "simulated"));
    expect(simulated.d1).toEqual(local.d1);
    expect(simulated.r2).toEqual(local.r2);
    expect(simulated.producers).toEqual(local.producers);
    expect(simulated.consumers).toEqual(local.consumers);
    expect(simulated.objects).toEqual([
      ...local.objects,
      "VECTORIZE_SIMULATOR:VectorizeSimulatorIndex",
    ]);
    expect(simulated.migrations.slice(0, local.migrations.length)).toEqual(local.migrations);
  });

  it("keeps production's webhook URL policy, as deployed; the local adapters allow loopback", () => {
    const policy = (env: string | undefined) => {
      const vars = resolvedConfig(CONFIG, env).vars as WebhookVars;
      return checkWebhookUrl("http://127.0.0.1:8099/hook", webhookConfig(vars)).ok;
    };
    expect(policy("production")).toBe(false);
    expect(policy("simulated")).toBe(false);
    expect(policy(undefined)).toBe(true);
  });

  it("runs the production adapters through the simulators' entry, never the AI or Vectorize of an account", async () => {
    const simulated = resolvedConfig(CONFIG, "simulated");
    expect(simulated.main).toMatch(/simulators\/worker\.ts$/);
    expect(simulated.vars).toMatchObject({ DEPLOYMENT: "production" });
    expect(simulated.ai).toBeUndefined();
    expect(simulated.vectorize).toEqual([]);
  });
});
