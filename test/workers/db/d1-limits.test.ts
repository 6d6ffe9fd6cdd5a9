import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { D1_LIMITS, D1LimitError, widestFunctionCall } from "../../../src/db/limits";
import { oversizedRows } from "../../helpers/row-sizes";

const db = database(env.DB);
/** The limit error a refused statement failed with (drizzle may wrap it as the cause). */
async function refusal(query: Promise<unknown>): Promise<string> {
  const error = await query.then(
    () => null,
    (e: unknown) => e,
  );
  const limit = error instanceof D1LimitError ? error : (error as Error | null)?.cause;
  expect(limit, String(error)).toBeInstanceOf(D1LimitError);
  return (limit as D1LimitError).message;
}

const args = (n: number) => Array.from({ length: n }, (_, i) => `${i}`).join(", ");

describe("the D1 binding the service uses", () => {
  it("sends a value of exactly 2,000,000 bytes and refuses one byte more", async () => {
    const ok = "é".repeat(D1_LIMITS.valueBytes / 2);
    const rows = await db.all<{ n: number }>(sql`SELECT length(CAST(${ok} AS BLOB)) AS n`);
    expect(rows[0]?.n).toBe(2_000_000);
    expect(await refusal(db.all(sql`SELECT ${`${ok}x`}`))).toMatch(/2000001 bytes/);
  });

  it("refuses a blob over the limit", async () => {
    const blob = new Uint8Array(D1_LIMITS.valueBytes + 1);
    expect(await refusal(db.all(sql`SELECT length(${blob})`))).toMatch(/2000001 bytes/);
  });

  it("refuses a function of 33 arguments that the local simulator runs", async () => {
    const wide = `SELECT json_array(${args(33)}) AS a`;
    // The simulator is kinder than production: this is why the binding checks.
    const local = await env.DB.prepare(wide).all<{ a: string }>();
    expect(JSON.parse(local.results[0]?.a ?? "[]")).toHaveLength(33);
    expect(await refusal(db.all(sql.raw(wide)))).toMatch(/json_array\(\) with 33 arguments/);
    const rows = await db.all<{ a: string }>(sql.raw(`SELECT json_array(${args(32)}) AS a`));
    expect(JSON.parse(rows[0]?.a ?? "[]")).toHaveLength(32);
  });

  it("refuses more than 100 bound parameters", async () => {
    const params = Array.from({ length: 101 }, (_, i) => sql`${i}`);
    expect(await refusal(db.all(sql`SELECT ${sql.join(params, sql`, `)}`))).toMatch(
      /101 bound parameters/,
    );
  });

  it("finds no oversized row in a database that holds none, and finds one that is", async () => {
    expect(await oversizedRows()).toEqual([]);
    // Written around the guard, as a simulator would let a bug do; removed before the
    // setup file's own check runs after this test.
    await env.DB.prepare("CREATE TABLE oversized_probe (body TEXT)").run();
    await env.DB.prepare("INSERT INTO oversized_probe VALUES (?)")
      .bind("x".repeat(D1_LIMITS.valueBytes + 1))
      .run();
    expect(await oversizedRows()).toEqual([
      { table: "oversized_probe", bytes: D1_LIMITS.valueBytes + 1 },
    ]);
    await env.DB.prepare("DROP TABLE oversized_probe").run();
  });
});

describe("widestFunctionCall", () => {
  it("counts the arguments of function calls only", () => {
    expect(widestFunctionCall(`SELECT json_array(${args(40)})`)).toEqual({
      name: "json_array",
      args: 40,
    });
    expect(widestFunctionCall(`SELECT 1 WHERE x IN (${args(90)})`)).toBeNull();
    expect(widestFunctionCall(`INSERT INTO "runs" ("a", "b", "c") VALUES (?, ?, ?)`)).toBeNull();
    expect(widestFunctionCall(`INSERT INTO runs (a, b, c, d) VALUES (?, ?, ?, ?)`)).toBeNull();
    expect(widestFunctionCall("CREATE TABLE `t` (`a` text, `b` text, `c` int)")).toBeNull();
    expect(widestFunctionCall("CREATE INDEX i ON t (a, b, c)")).toBeNull();
    expect(widestFunctionCall("SELECT count(*) OVER (PARTITION BY a, b) FROM t")).toEqual({
      name: "count",
      args: 1,
    });
    expect(widestFunctionCall("SELECT random()")).toEqual({ name: "random", args: 0 });
    expect(
      widestFunctionCall("SELECT coalesce(a, 'x, y, (z)', \"q,(\", max(b, c, d)) -- f(1,2,3)"),
    ).toEqual({ name: "coalesce", args: 4 });
    expect(widestFunctionCall("SELECT f(/* , , */ 1)")).toEqual({ name: "f", args: 1 });
  });

  it("gives the argument count of a call whatever its arguments hold", () => {
    const argument = fc.oneof(
      fc.integer().map(String),
      fc.string().map((s) => `'${s.replaceAll("'", "''")}'`),
      fc.constant("?"),
      fc.constant("json_array(1, 2)"),
      fc.constant("(SELECT a FROM b WHERE c IN (1, 2, 3))"),
    );
    fc.assert(
      fc.property(fc.array(argument, { minLength: 3, maxLength: 60 }), (list) => {
        expect(widestFunctionCall(`SELECT wide(${list.join(", ")})`)).toEqual({
          name: "wide",
          args: list.length,
        });
      }),
    );
  });

  it("finds no call over the limit in any migration", () => {
    for (const migration of env.TEST_MIGRATIONS) {
      for (const query of migration.queries) {
        const widest = widestFunctionCall(query);
        expect(widest?.args ?? 0, `${migration.name}: ${query}`).toBeLessThanOrEqual(
          D1_LIMITS.functionArgs,
        );
      }
    }
  });
});
