import { describe, expect, it } from "vitest";
import { fieldKind } from "@core/form/field-kind";
import { clearedValue, coerceFormValue, initialValue, storedFormValue } from "@core/form/kinds";
import { checkSchemaDialect } from "@core/schema/dialect";
import { translateMessage } from "@core/messages";
import { otherTrends, selfReferencingField } from "@core/content/trends";
import { applyTrendAdd } from "@core/form/trend-add";

/* The trend select on a list (related trends, kind trendList): its kind, the dialect's check, its values, and the
 * one rule of the trend screen the server adds: a trend is never related to itself. */

const ID_A = "0b7c5e64-5a1c-4b7e-9a51-7f0a2d3c4e01";
const ID_B = "0b7c5e64-5a1c-4b7e-9a51-7f0a2d3c4e02";
const related = { type: "array", title: "Related trends", renderer: "trend-select", items: { type: "string", _ref: "trends" } };
const schema = {
  type: "object",
  properties: { title: { type: "string" }, related, main: { type: "string", renderer: "trend-select", _ref: "trends" } },
};

describe("the trend list", () => {
  it("is its own kind on a list, the single trend select on a reference", () => {
    expect(fieldKind(related)).toBe("trendList");
    expect(fieldKind(schema.properties.main)).toBe("trendSelect");
  });

  it("is accepted by the dialect on a list of references, and refused on anything else", () => {
    const check = (property: Record<string, unknown>) =>
      checkSchemaDialect({ type: "object", properties: { p: property } }, { locales: ["en"], collections: ["trends"], compile: false }).map(
        (message) => translateMessage("en", message),
      );
    const needsList = "properties.p: the trend-select renderer needs a list (type array) whose items have a _ref to a collection";
    expect(check(related)).toEqual([]);
    expect(check({ ...related, maxItems: 4, uniqueItems: true })).toEqual([]);
    expect(check({ type: "array", renderer: "trend-select", items: { type: "string" } })).toEqual([needsList]);
    expect(check({ type: "array", renderer: "trend-select", items: { type: "string", _ref: "b-image" } })).toEqual([needsList]);
    expect(check({ type: "array", renderer: "trend-select", _ref: "trends", items: { type: "string", _ref: "trends" } })).toEqual([
      needsList,
    ]);
    expect(check({ type: "array", renderer: "trend-select", items: { type: "string", _ref: "nowhere" } })).toEqual([
      "properties.p.items: _ref names the collection nowhere, which no bucket has",
    ]);
    expect(check({ type: "string", renderer: "trend-select", _ref: "trends", items: { type: "string" } })).toContain(
      "properties.p: the trend-select renderer needs a _ref to a collection",
    );
  });

  it("keeps its values as a list: no spare row, the order as posted, empty rows at the end dropped", () => {
    expect(initialValue(related)).toEqual([]);
    expect(clearedValue(related)).toEqual([]);
    expect(coerceFormValue([ID_B, ID_A], related)).toEqual([ID_B, ID_A]);
    expect(coerceFormValue(ID_A, related)).toEqual([ID_A]);
    // The no-JavaScript add select left on 'Pick an option' is the list's last row: no trend.
    expect(coerceFormValue([ID_A, ""], related)).toEqual([ID_A]);
    expect(coerceFormValue("", related)).toBeUndefined();
    expect(storedFormValue(ID_A, related)).toBeUndefined();
    expect(storedFormValue([ID_A], related)).toEqual([ID_A]);
  });

  it("finds a trend that names itself in a trend select of its own collection, in any case", () => {
    expect(selfReferencingField(schema, "trends", ID_A, { related: [ID_B, ID_A.toUpperCase()] })).toBe("related");
    expect(selfReferencingField(schema, "trends", ID_A, { main: ID_A })).toBe("main");
    expect(selfReferencingField(schema, "trends", ID_A, { related: [ID_B], main: ID_B })).toBeNull();
    // Another collection's trend select may hold any id.
    expect(selfReferencingField(schema, "other-trends", ID_A, { related: [ID_A] })).toBeNull();
  });

  it("never offers the trend being edited", () => {
    const options = [
      { value: ID_A, label: "A" },
      { value: ID_B, label: "B" },
    ];
    expect(otherTrends(options, ID_A.toUpperCase())).toEqual([{ value: ID_B, label: "B" }]);
    expect(otherTrends(options, null)).toEqual(options);
  });

  it("adds the no-JavaScript select's trend at the end of its list, once, and drops anything else", () => {
    const post = (entries: Array<[string, string]>) => {
      const formData = new FormData();
      for (const [name, value] of entries) formData.append(name, value);
      applyTrendAdd(formData, schema);
      return [...formData.entries()];
    };
    expect(
      post([
        ["related[0]", ID_A],
        ["__trend_add:related", ID_B.toUpperCase()],
      ]),
    ).toEqual([
      ["related[0]", ID_A],
      ["related[1]", ID_B],
    ]);
    expect(
      post([
        ["related[3]", ID_A],
        ["__trend_add:related", ID_B],
      ]),
    ).toEqual([
      ["related[3]", ID_A],
      ["related[4]", ID_B],
    ]);
    expect(post([["__trend_add:related", ID_B]])).toEqual([["related[0]", ID_B]]);
    expect(
      post([
        ["related[0]", ID_A],
        ["__trend_add:related", ""],
      ]),
    ).toEqual([["related[0]", ID_A]]);
    expect(
      post([
        ["related[0]", ID_A],
        ["__trend_add:related", ID_A],
      ]),
    ).toEqual([["related[0]", ID_A]]);
    expect(post([["__trend_add:related", "not an id"]])).toEqual([]);
    expect(
      post([
        ["__trend_add:title", ID_B],
        ["__trend_add:main", ID_B],
        ["__trend_add:", ID_B],
      ]),
    ).toEqual([]);
  });
});
