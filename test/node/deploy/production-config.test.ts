import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  formatJson,
  setTomlKey,
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
