import { describe, expect, it } from "vitest";
import { API, expectJson, expectProblem, newTenant, workerFetch } from "../../helpers/harness";
import { type Preview, preview, sendCsv } from "./csv";

describe("POST /rulebooks/csv-imports/preview", () => {
  it("reads quoted fields, doubled quotes, line breaks in cells and CRLF, by line", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const csv = [
      "Rule ID,Title,Description,Owner",
      'ppe-1,"Hard hats, always","Worn on the head\r\nnot carried",Safety team',
      'ppe-2,"Say ""stop""",,',
      "",
      "ppe-3,Vests,Near trucks,Ops",
    ].join("\r\n");
    const result = await preview(api, csv);
    expect(result.session_id).toMatch(/^rbi_[0-9a-z]{26}$/);
    expect(Date.parse(result.expires_at) - Date.now()).toBeGreaterThan(59 * 60 * 1000);
    expect(result).toMatchObject({
      delimiter: ",",
      columns: ["Rule ID", "Title", "Description", "Owner"],
      row_count: 3,
      errors: [],
      error_count: 0,
    });
    expect(result.suggested_mapping).toEqual({
      rulebook_name: null,
      rule_id: "Rule ID",
      rule_title: "Title",
      rule_description: "Description",
      rule_severity: null,
      additional_description_columns: ["Owner"],
    });
    expect(result.rows).toEqual([
      {
        line: 2,
        values: {
          "Rule ID": "ppe-1",
          Title: "Hard hats, always",
          Description: "Worn on the head\r\nnot carried",
          Owner: "Safety team",
        },
      },
      { line: 4, values: { "Rule ID": "ppe-2", Title: 'Say "stop"', Description: "", Owner: "" } },
      {
        line: 6,
        values: { "Rule ID": "ppe-3", Title: "Vests", Description: "Near trucks", Owner: "Ops" },
      },
    ]);
  });

  it("detects semicolons and tabs and drops a UTF-8 byte order mark", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const semicolons = await preview(
      api,
      "\uFEFFRulebook;Règle;Beschreibung\nA;Casque;« porté »\n",
    );
    expect(semicolons.delimiter).toBe(";");
    expect(semicolons.columns).toEqual(["Rulebook", "Règle", "Beschreibung"]);
    expect(semicolons.rows[0]?.values).toEqual({
      Rulebook: "A",
      Règle: "Casque",
      Beschreibung: "« porté »",
    });
    const tabs = await preview(api, "id\ttitle\tseverity\nr1\tOne, with comma\tHIGH\n");
    expect(tabs.delimiter).toBe("\t");
    expect(tabs.rows[0]?.values.title).toBe("One, with comma");
    expect(tabs.suggested_mapping).toMatchObject({
      rule_id: "id",
      rule_title: "title",
      rule_severity: "severity",
    });
  });

  it("lists broken rows by the line they start on", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const csv = 'id,title\nr1,"two\nlines"\nr2\nr3,ok,extra\nr4,"never closed\nr5,fine\n';
    const result = await preview(api, csv);
    expect(result.errors).toEqual([
      { line: 4, message: expect.stringContaining("1 fields") },
      { line: 5, message: expect.stringContaining("3 fields") },
      { line: 6, message: expect.stringContaining("never closed") },
    ]);
    expect(result.error_count).toBe(3);
  });

  it("takes the file as JSON { csv } and as a multipart upload", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const asJson = await expectJson<Preview>(
      await api.post("/rulebooks/csv-imports/preview", { csv: "id,title\nr1,One\n" }),
      201,
    );
    expect(asJson.rows[0]?.values).toEqual({ id: "r1", title: "One" });
    const form = new FormData();
    form.append("file", new File(["id,title\nr2,Two\n"], "rules.csv", { type: "text/csv" }));
    const asForm = await expectJson<Preview>(
      await workerFetch(`${API}/rulebooks/csv-imports/preview`, {
        method: "POST",
        headers: { authorization: `Bearer ${api.key}` },
        body: form,
      }),
      201,
    );
    expect(asForm.rows[0]?.values).toEqual({ id: "r2", title: "Two" });
  });

  it("previews 10,000 rows in a 5 MiB file", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const filler = "x".repeat(490);
    const lines = ["id,title,description"];
    for (let i = 1; i <= 10_000; i++) lines.push(`r${i},Rule ${i},${filler}`);
    const csv = lines.join("\n");
    expect(csv.length).toBeGreaterThan(4.8 * 1024 * 1024);
    expect(csv.length).toBeLessThanOrEqual(5 * 1024 * 1024);
    const result = await preview(api, csv);
    expect(result.row_count).toBe(10_000);
    expect(result.rows).toHaveLength(20);
    expect(result.rows[19]?.line).toBe(21);
  });

  it("answers 413 beyond 10,000 rows or 5 MiB, 400 for no header or non-UTF-8", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const rows = ["id,title", ...Array.from({ length: 10_001 }, (_, i) => `r${i},T`)].join("\n");
    await expectProblem(await sendCsv(api, rows), 413, "payload-too-large");
    await expectProblem(
      await sendCsv(api, `id,title\n${"a".repeat(5 * 1024 * 1024)}`),
      413,
      "payload-too-large",
    );
    const blank = await expectProblem(await sendCsv(api, "\n\n,,\n"), 400, "invalid-request");
    expect(blank.errors?.map((e) => e.path)).toEqual(["body"]);
    const latin1 = new Uint8Array([0x69, 0x64, 0x2c, 0x74, 0x0a, 0x72, 0x31, 0x2c, 0xe9, 0x0a]);
    const notUtf8 = await expectProblem(await sendCsv(api, latin1), 400, "invalid-request");
    expect(notUtf8.errors?.map((e) => e.path)).toEqual(["body"]);
    const json = await expectProblem(
      await api.post("/rulebooks/csv-imports/preview", { csv: "id,t\nr1,\uFFFD\n" }),
      400,
      "invalid-request",
    );
    expect(json.errors?.map((e) => e.path)).toEqual(["csv"]);
    const bodiless = await expectProblem(
      await api.request("POST", "/rulebooks/csv-imports/preview"),
      400,
      "invalid-request",
    );
    expect(bodiless.errors?.map((e) => e.path)).toEqual(["body"]);
    await expectProblem(
      await sendCsv(api, "id,title\n", { "content-type": "text/plain" }),
      415,
      "unsupported-media-type",
    );
    const missing = await expectProblem(
      await api.post("/rulebooks/csv-imports/preview", { file: "x" }),
      400,
      "invalid-request",
    );
    expect(missing.errors?.map((e) => e.path)).toContain("csv");
  });
});
