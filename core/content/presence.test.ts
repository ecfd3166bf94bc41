import { describe, expect, it } from "vitest";
import { perPerson, presencePath } from "./presence";

describe("perPerson", () => {
  it("shows each person once: their earliest page's since, unsaved when any of their pages is, the earliest first", () => {
    const rows = [
      { userId: "b", name: "Ben", since: "2026-12-04T10:05:00.000Z", unsaved: false },
      { userId: "a", name: "Anna", since: "2026-12-04T10:07:00.000Z", unsaved: false },
      { userId: "b", name: "Ben", since: "2026-12-04T10:01:00.000Z", unsaved: false },
      { userId: "a", name: "Anna", since: "2026-12-04T10:09:00.000Z", unsaved: true },
    ];
    expect(perPerson(rows)).toEqual([
      { userId: "b", name: "Ben", since: "2026-12-04T10:01:00.000Z", unsaved: false },
      { userId: "a", name: "Anna", since: "2026-12-04T10:07:00.000Z", unsaved: true },
    ]);
    // The rows given are not changed.
    expect(rows[2]!.since).toBe("2026-12-04T10:01:00.000Z");
    expect(rows[1]!.unsaved).toBe(false);
  });

  it("orders people who came at once by name, and is empty for nobody", () => {
    const at = "2026-12-04T10:00:00.000Z";
    expect(
      perPerson([
        { userId: "z", name: "Zoë", since: at, unsaved: false },
        { userId: "c", name: "Cleo", since: at, unsaved: false },
      ]).map((editor) => editor.name),
    ).toEqual(["Cleo", "Zoë"]);
    expect(perPerson([])).toEqual([]);
  });
});

describe("presencePath", () => {
  it("is the document's path under its bucket, its parts encoded", () => {
    expect(presencePath("rooms & halls", "0b6f")).toBe("/b/rooms%20%26%20halls/0b6f/presence");
  });
});
