import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkDeployedValues,
  formatJson,
  isPlaceholder,
  resolvedConfig,
  setTomlKey,
  WRITTEN_KEYS,
  withProductionValues,
} from "../../../scripts/lib/production-config.mjs";
import { corsRows, corsRules, listedRows, sameRows } from "../../../scripts/lib/r2-rules.mjs";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const template = readFileSync(path.join(ROOT, "wrangler.toml"), "utf8");
const values = {
  accountId: "a1b2c3d4e5f60718293a4b5c6d7e8f90",
  databaseId: "00000001-1111-4222-8333-444455556666",
};

describe("the values npm run deploy writes into wrangler.toml", () => {
  it("writes them into [env.production] only, and writing them twice changes nothing", () => {
    const once = withProductionValues(template, {
      ...values,
      reach: { kind: "route", host: "video.acme.test" },
    });
    expect(
      withProductionValues(once, { ...values, reach: { kind: "route", host: "video.acme.test" } }),
    ).toBe(once);
    const [local, production] = once.split("\n[env.production]\n");
    expect(local).toBe(template.split("\n[env.production]\n")[0]);
    expect(production).toContain('\naccount_id = "a1b2c3d4e5f60718293a4b5c6d7e8f90"\n');
    expect(production).toContain('\nworkers_dev = false\nroutes = ["video.acme.test/*"]\n');
    expect(production).toContain('\ndatabase_id = "00000001-1111-4222-8333-444455556666"\n');
    expect(production).toContain('\nR2_ACCOUNT_ID = "a1b2c3d4e5f60718293a4b5c6d7e8f90"\n');
  });

  it("gives production the 300 s of CPU a long Matroska probe needs, not the 30 s default", () => {
    const production = template.split("\n[env.production]\n")[1] ?? "";
    expect(production).toContain("\n[env.production.limits]\ncpu_ms = 300000\n");
  });

  it("refuses a table the file does not have", () => {
    expect(() => setTomlKey(template, "[env.staging]", "name", "x")).toThrow(
      "wrangler.toml has no [env.staging] table",
    );
  });
});

/** [env.production] of `text`, as wrangler resolves it. */
async function production(text: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "vas-values-"));
  try {
    writeFileSync(path.join(dir, "wrangler.toml"), text);
    return await resolvedConfig(path.join(dir, "wrangler.toml"), "production");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("a configuration about to ship", () => {
  it("may not carry the template's placeholders, and every one is a value the deploy writes", async () => {
    const problems = checkDeployedValues(await production(template));
    expect(problems).toEqual([
      "[env.production] routes is the template's placeholder api.example.com: npm run deploy writes it, or set it",
      "[env.production] vars.R2_ACCOUNT_ID is the template's placeholder replace-with-your-account-id: npm run deploy writes it, or set it",
      "[env.production] d1_databases[DB].database_id is the template's placeholder replace-with-your-d1-database-id: npm run deploy writes it, or set it",
      "[env.production] has no account_id: wrangler would deploy to whichever account the login picks",
    ]);
    for (const line of problems.slice(0, 3))
      expect(WRITTEN_KEYS.some((key) => line.startsWith(`[env.production] ${key} `))).toBe(true);
    const written = withProductionValues(template, {
      ...values,
      reach: { kind: "domain", host: "api.acme.test" },
    });
    expect(checkDeployedValues(await production(written))).toEqual([]);
  });

  it("names an upload endpoint of another account", async () => {
    const written = withProductionValues(template, { ...values, reach: { kind: "workers.dev" } });
    const other = setTomlKey(written, "[env.production.vars]", "R2_ACCOUNT_ID", "f".repeat(32));
    expect(checkDeployedValues(await production(other))).toEqual([
      `[env.production] vars.R2_ACCOUNT_ID ${"f".repeat(32)} is not account_id a1b2c3d4e5f60718293a4b5c6d7e8f90: upload URLs would name another account`,
    ]);
  });

  it("tells a placeholder from a value", () => {
    for (const value of [
      "replace-with-your-account-id",
      "00000000-0000-4000-8000-000000000000",
      "api.example.com",
      "https://help.example.org/x",
      "media.example",
    ])
      expect(isPlaceholder(value), value).toBe(true);
    for (const value of [
      "api.acme.test",
      "00000001-1111-4222-8333-444455556666",
      "examples.com",
      42,
    ])
      expect(isPlaceholder(value), String(value)).toBe(false);
  });
});

describe("the bucket's rules", () => {
  it("writes the CORS file as Biome formats it", () => {
    const committed = readFileSync(path.join(ROOT, "deploy/r2-cors.json"), "utf8");
    expect(formatJson(JSON.parse(committed))).toBe(committed);
  });

  it("reads wrangler's labelled list back into the rows the file renders to", () => {
    const rules = corsRules(["https://api.acme.test", "https://app.acme.test"]).rules;
    const printed = [
      "Listing CORS rules for bucket 'media'...",
      "allowed_origins:  https://api.acme.test, https://app.acme.test",
      "allowed_methods:  GET, HEAD, PUT",
      "allowed_headers:  content-type",
      "exposed_headers:  ETag",
      "max_age_seconds:  3600",
    ].join("\n");
    expect(sameRows(listedRows(printed), corsRows(rules))).toBe(true);
    expect(sameRows(listedRows(printed.replace("3600", "60")), corsRows(rules))).toBe(false);
    expect(sameRows(listedRows("There is no CORS configuration"), corsRows(rules))).toBe(false);
  });
});
