import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ImportFileError, importRows, type ImportFormat } from "@server/content/import-source";

const folder = mkdtempSync(path.join(tmpdir(), "vitrine-import-source-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let count = 0;
const file = (text: string | Buffer) => {
  count += 1;
  const name = path.join(folder, `file-${count}`);
  writeFileSync(name, text);
  return name;
};

async function rowsOf(text: string | Buffer, format: ImportFormat) {
  const rows = [];
  for await (const row of importRows(file(text), format)) rows.push(row);
  return rows;
}

describe("the rows of an import's file (issue 34)", () => {
  it("reads a CSV with a byte-order mark and its delimiter (a comma, a semicolon or a tab) taken from the header", async () => {
    expect(await rowsOf('\uFEFFref, title\nA-1,"Strand, zee"\n\nA-2,"Twee\nregels"\n', "csv")).toEqual([
      { ref: "A-1", title: "Strand, zee" },
      { ref: "A-2", title: "Twee\nregels" },
    ]);
    expect(await rowsOf("ref;title\r\nA-1;Strand, zee\r\n", "csv")).toEqual([{ ref: "A-1", title: "Strand, zee" }]);
    expect(await rowsOf("ref\ttitle\nA-1\tZee\n", "csv")).toEqual([{ ref: "A-1", title: "Zee" }]);
  });

  it("reads a JSON array's and NDJSON's objects", async () => {
    expect(await rowsOf('[{"ref": "J-1"}, {"ref": "J-2", "n": [1, 2]}]', "json")).toEqual([{ ref: "J-1" }, { ref: "J-2", n: [1, 2] }]);
    expect(await rowsOf('{"ref": "N-1"}\r\n\n{"ref": "N-2"}', "ndjson")).toEqual([{ ref: "N-1" }, { ref: "N-2" }]);
  });

  it("stops early without an error when the reader has what it needs (the first row's headers)", async () => {
    for (const [text, format] of [
      ["ref,title\nA-1,B\nA-2,C\n", "csv"],
      ['[{"ref": "J-1"}, {"ref": "J-2"}]', "json"],
      ['{"ref": "N-1"}\n{"ref": "N-2"}\n', "ndjson"],
    ] as const) {
      const iterator = importRows(file(text), format)[Symbol.asyncIterator]();
      expect((await iterator.next()).value, format).toEqual(expect.objectContaining({ ref: expect.stringMatching(/-1$/) as unknown }));
      await expect(iterator.return(undefined), format).resolves.toEqual({ done: true, value: undefined });
    }
  });

  it("refuses what it cannot read, with the row", async () => {
    const refusal = async (text: string | Buffer, format: ImportFormat) => {
      try {
        await rowsOf(text, format);
      } catch (error) {
        if (error instanceof ImportFileError) return { key: error.problem.key, row: error.row };
        throw error;
      }
      throw new Error("read without a refusal");
    };
    expect(await refusal(Buffer.from("ref\nCaf\xe9\n", "latin1"), "csv")).toEqual({ key: "transfer.notUtf8", row: null });
    expect(await refusal('ref\nA-1\n"open\n', "csv")).toEqual({ key: "transfer.csvQuotes", row: 2 });
    expect(await refusal("ref,title\nA-1\n", "csv")).toEqual({ key: "transfer.csvColumns", row: 1 });
    expect(await refusal("[1]", "json")).toEqual({ key: "transfer.notObject", row: 1 });
    expect(await refusal('{"a": 1}\n[2]\n', "ndjson")).toEqual({ key: "transfer.notObject", row: 2 });
    expect(await refusal(`{"a": "${"x".repeat(1024 * 1024 + 10)}`, "ndjson")).toEqual({ key: "transfer.rowTooLong", row: 1 });
  });
});
