import { describe, expect, it } from "vitest";
import { cellsOf, dataOfCells, documentColumns } from "@core/content/columns";

const schema = {
  type: "object",
  properties: {
    title: { type: "string", translate: true },
    year: { type: "integer" },
    price: { type: "number" },
    onShow: { type: "boolean" },
    room: { type: "string", _ref: "rooms" },
    tags: { type: "array", items: { type: "string" } },
    size: { type: "object", properties: { width: { type: "number" } } },
  },
};

describe("a bucket's documents as columns (issue 34)", () => {
  const columns = documentColumns(schema, ["nl", "en"]);

  it("has a column per property, one per locale for a translated text, JSON for lists and objects", () => {
    expect(columns.map((column) => [column.header, column.kind])).toEqual([
      ["title.nl", "text"],
      ["title.en", "text"],
      ["year", "integer"],
      ["price", "number"],
      ["onShow", "boolean"],
      ["room", "text"],
      ["tags", "json"],
      ["size", "json"],
    ]);
  });

  it("turns a document into cells and the cells back into the same document", () => {
    const data = { title: { nl: "Zee", en: "Sea" }, year: 1881, price: 12.5, onShow: false, tags: ["a"], size: { width: 2 } };
    const cells = cellsOf(data, columns);
    expect(cells).toEqual(["Zee", "Sea", "1881", "12.5", "false", "", '["a"]', '{"width":2}']);
    const byHeader = Object.fromEntries(columns.map((column, index) => [column.header, cells[index]]));
    expect(dataOfCells(byHeader, columns)).toEqual({ data, problems: [] });
  });

  it("reads yes and no, a comma decimal, leaves empty cells out, and says what a cell it cannot read is", () => {
    expect(dataOfCells({ onShow: "Ja", price: "12,5", "title.en": "", year: "" }, columns)).toEqual({
      data: { onShow: true, price: 12.5 },
      problems: [],
    });
    expect(dataOfCells({ year: "1881.5", onShow: "maybe", tags: "[a" }, columns).problems).toEqual([
      { header: "year", message: { key: "content.notWholeNumber", params: { text: "1881.5" } } },
      { header: "onShow", message: { key: "transfer.notBoolean", params: { text: "maybe" } } },
      { header: "tags", message: { key: "transfer.notJson" } },
    ]);
  });
});
