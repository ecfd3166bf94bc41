import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { createI18n } from "~/lib/i18n";
import { ReleaseShareForm } from "~/components/publishing/release-share-form";

/*
 * ReleaseShareForm (for the release page): a plain form posted to /shareables with releaseId, the expiry choices of a
 * document's share panel, and the page's path to come back to; its words in both languages.
 */

const RELEASE_ID = "6f1c2a8e-3b9d-4c1e-9a7f-2d5e8b0c4a11";

function render(language: "en" | "nl") {
  const Stub = createRoutesStub([
    { path: "/releases/:releaseId", Component: () => createElement(ReleaseShareForm, { releaseId: RELEASE_ID, open: true }) },
  ]);
  return renderToString(
    createElement(I18nextProvider, { i18n: createI18n(language) }, createElement(Stub, { initialEntries: [`/releases/${RELEASE_ID}`] })),
  );
}

describe("ReleaseShareForm", () => {
  it("is a form posted to /shareables with the release's id, an expiry and the way back", () => {
    const html = render("en");
    const form = /<form[^>]*>/.exec(html)?.[0] ?? "";
    expect(form).toContain('method="post"');
    expect(form).toContain('action="/shareables"');
    expect(html).toContain(`<input type="hidden" name="releaseId" value="${RELEASE_ID}"/>`);
    expect(html).toContain('<input type="hidden" name="intent" value="create"/>');
    expect(html).toContain(`<input type="hidden" name="back" value="/releases/${RELEASE_ID}"/>`);
    expect(html).toMatch(/<select[^>]*name="expiry"/);
    expect(html).toContain('name="expiresOn"');
    expect(html).toContain("Share this release");
    expect(html).toContain("Make link");
    expect(html).toContain("<details");
  });

  it("speaks Dutch", () => {
    const html = render("nl");
    expect(html).toContain("Deze release delen");
    expect(html).toContain("Link maken");
  });
});
