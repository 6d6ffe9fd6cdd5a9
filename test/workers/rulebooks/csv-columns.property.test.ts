import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { columnNames } from "../../../src/services/rulebooks/csv-parse";
import { expectJson, newTenant } from "../../helpers/harness";
import { type ImportResult, importCsv, preview } from "./csv";

// Headers that repeat themselves, leave cells empty and spell out the names a repeat would
// be given: the preview keys each row by column name and the import finds a column by name,
// so two columns with one name made them read different cells.
const cell = fc.oneof(
  fc.constantFrom("Title", "Title (2)", "Title (3)", " Title ", "", "Column 2", "Column 2 (2)"),
  fc.string({ maxLength: 4 }),
);
const header = fc.array(cell, { maxLength: 12 });

function baseOf(raw: string, index: number): string {
  return raw.trim() || `Column ${index + 1}`;
}

describe("CSV column names", () => {
  it("are distinct, one per cell, and the same for the same header", () => {
    fc.assert(
      fc.property(header, (cells) => {
        const names = columnNames(cells);
        expect(names).toHaveLength(cells.length);
        expect(new Set(names).size, JSON.stringify(names)).toBe(names.length);
        expect(columnNames([...cells])).toEqual(names);
      }),
      { numRuns: 500 },
    );
  });

  it("keep each cell's own name where it is free, else add the first free (k)", () => {
    fc.assert(
      fc.property(header, (cells) => {
        const names = columnNames(cells);
        const seen = new Set<string>();
        names.forEach((name, index) => {
          const base = baseOf(cells[index] ?? "", index);
          if (!seen.has(base)) expect(name).toBe(base);
          else {
            expect(name.startsWith(`${base} (`), name).toBe(true);
            expect(name.slice(base.length), name).toMatch(/^ \(\d+\)$/);
          }
          seen.add(base);
        });
      }),
      { numRuns: 500 },
    );
  });

  it("names `Title,Title,Title (2)` Title, Title (3), Title (2)", () => {
    expect(columnNames(["Title", "Title", "Title (2)"])).toEqual([
      "Title",
      "Title (3)",
      "Title (2)",
    ]);
  });

  it("make the preview and the import read the same cell for every name", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const repeating = fc.array(fc.constantFrom("Title", "Title (2)", "", "Column 3"), {
      minLength: 1,
      maxLength: 4,
    });
    await fc.assert(
      fc.asyncProperty(repeating, async (cells) => {
        const values = cells.map((_, i) => `value ${i}`);
        const csv = `id,${cells.join(",")}\nr1,${values.join(",")}\n`;
        const shown = await preview(api, csv);
        const [row] = shown.rows;
        for (const column of shown.columns.slice(1)) {
          const mapping = { rule_id: "id", rule_title: column };
          const res = await importCsv(api, {
            session_id: shown.session_id,
            default_rulebook_name: "Columns",
            mapping,
          });
          const imported = await expectJson<ImportResult>(res, 201);
          const title = imported.rulebooks[0]?.rules[0]?.title;
          expect(title, `${csv} ${column}`).toBe(row?.values[column]);
        }
      }),
      { numRuns: 12, examples: [[["Title", "Title", "Title (2)"]], [["", "Column 3", ""]]] },
    );
  });
});
