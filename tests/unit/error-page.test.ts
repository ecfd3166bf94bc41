import { describe, expect, it } from "vitest";
import { errorPageFailureHtml } from "@server/web/error-page-failure";

describe("error page failure fallback", () => {
  it("says so with a way home, and never echoes markup", () => {
    const html = errorPageFailureHtml("abc-123<script>");
    expect(html).toContain("An error occurred while showing the error page");
    expect(html).toContain('<a href="/">Go back to home</a>');
    expect(html).toContain("abc-123script");
    expect(html).not.toContain("<script>");
  });
});
