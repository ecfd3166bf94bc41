import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "@core/safe-redirect";

describe("safeRedirectPath", () => {
  it("keeps same-origin paths and refuses the rest", () => {
    expect(safeRedirectPath("/b/artworks?page=2")).toBe("/b/artworks?page=2");
    expect(safeRedirectPath("//evil.example")).toBe("/");
  });
});
