import { describe, expect, it } from "vitest";
import { searchSnippet } from "@core/content/search-snippet";

describe("searchSnippet", () => {
  it("finds the first value holding the words, in the data's order, case-insensitive, and cuts it around them, between words where it can", () => {
    const data = { title: "Beach", parts: [{ text: "A grey sky" }, { text: "x".repeat(60) + " The GREY sea at dawn " + "y".repeat(60) }] };
    expect(searchSnippet(data, "grey")).toEqual({ before: "A ", match: "grey", after: " sky" });
    expect(searchSnippet(data, "grey sea")).toEqual({ before: "…The ", match: "GREY sea", after: " at dawn…" });
    const long = "a".repeat(80) + " sea " + "b".repeat(80);
    expect(searchSnippet({ long }, "sea")).toEqual({ before: "…" + "a".repeat(39) + " ", match: "sea", after: " " + "b".repeat(39) + "…" });
  });

  it("reads numbers and translated texts, folds runs of white space, and answers null when no one value holds the words", () => {
    expect(searchSnippet({ year: 1881 }, "188")).toEqual({ before: "", match: "188", after: "1" });
    expect(searchSnippet({ title: { en: "Sea", nl: "De\n\nzee" } }, "de zee")).toEqual({ before: "", match: "De zee", after: "" });
    expect(searchSnippet({ a: "dunes", b: "light" }, "dunes light")).toBeNull();
    expect(searchSnippet({ a: "dunes" }, "  ")).toBeNull();
  });

  it("passes over the value shown beside it (the title)", () => {
    expect(searchSnippet({ title: "Dunes", text: "Walk in the dunes" }, "dune", "Dunes")).toEqual({
      before: "Walk in the ",
      match: "dune",
      after: "s",
    });
    expect(searchSnippet({ title: "Dunes" }, "dune", "Dunes")).toBeNull();
  });
});
