import type { Browser, Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, open } from "@tests/support/browser";
import { BAD_DOCUMENTS, BAD_INPUT_SCHEMA, shownLikeAForm } from "@tests/support/bad-documents";
import { fieldBox, signedInContext } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";
import { sameOrigin } from "@tests/support/http";

/*
 * The bucket-form modal (JavaScript on) validates with the page's resolver (core/form/resolve.ts
 * documentResolver: hostile entries, inspectPayload, the bucket's validator): for the same bad input it shows
 * the same messages under the same field names as the JSON API answers and the page renders
 * (tests/integration/same-errors.test.ts), and sends nothing.
 */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** The errors the modal's form shows: under each field, and the form's own above the fields ("form"). */
function modalErrors(dialog: Locator): Promise<Record<string, string>> {
  return dialog.locator("form").evaluate((form: HTMLFormElement) => {
    const shown: Record<string, string> = {};
    const text = (element: Element) => element.textContent.replace(/\s+/g, " ").trim();
    const formLevel = form.querySelector(":scope > .form-error");
    if (formLevel) shown.form = text(formLevel);
    for (const box of form.querySelectorAll(".field[data-field]")) {
      const error = box.querySelector(":scope > .field-error");
      if (error) shown[box.getAttribute("data-field")!] = text(error);
    }
    return shown;
  });
}

describe("the bucket-form modal", () => {
  it("shows the JSON API's errors for the same bad input, under the same fields, without saving", async () => {
    const people = await createTestBucket(server.db, { name: "People", jsonSchema: BAD_INPUT_SCHEMA, locales: ["en"] });
    const works = await createTestBucket(server.db, {
      locales: ["en"],
      jsonSchema: {
        type: "object",
        properties: { person: { type: "string", title: "Person", _ref: people.collectionName, renderer: "popup" } },
      },
    });
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    const saves: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") saves.push(request.url());
    });
    const validatorLoaded = page.waitForResponse((response) => response.url().includes(`/validators/${people.slug}/`));
    await open(page, `/b/${works.slug}/new`);
    const dialog = page.locator("dialog.bucket-form-modal");

    for (const [index, bad] of BAD_DOCUMENTS.entries()) {
      const api = await fetch(`${server.url}/api/v1/buckets/${people.slug}/save`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: ctx.cookie, ...sameOrigin(server.url) },
        body: bad.json,
      });
      const { errors } = (await api.json()) as { errors: Record<string, string[]> };

      await fieldBox(page, "person").getByRole("button", { name: "Edit Person" }).click();
      await dialog.waitFor({ state: "visible" });
      if (index === 0) expect((await validatorLoaded).status()).toBe(200);
      for (const [name, value] of Object.entries(bad.modal.fill)) {
        // Set as a tampered page would: the number input's own handling (on blur) is not what is tested here.
        await dialog.locator(`input[name="${name}"]`).evaluate((input: HTMLInputElement, text) => (input.value = text), value);
      }
      await dialog.locator("form").evaluate((form: HTMLFormElement, inject) => {
        for (const [name, value] of Object.entries(inject))
          form.append(Object.assign(document.createElement("input"), { type: "hidden", name, value }));
      }, bad.modal.inject);
      await dialog.getByRole("button", { name: "Submit" }).click();
      await expect.poll(() => modalErrors(dialog), { timeout: 10_000 }).toEqual(shownLikeAForm(errors));
      expect(await dialog.isVisible(), bad.label).toBe(true);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });
    }
    expect(saves).toEqual([]);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("shows the server pipeline's errors under its fields when its own validator could not load, logging the failed save", async () => {
    const people = await createTestBucket(server.db, { name: "People", jsonSchema: BAD_INPUT_SCHEMA, locales: ["en"] });
    const works = await createTestBucket(server.db, {
      locales: ["en"],
      jsonSchema: {
        type: "object",
        properties: { person: { type: "string", title: "Person", _ref: people.collectionName, renderer: "popup" } },
      },
    });
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    await page.route(/\/validators\//, (route) => route.abort());
    const saves: number[] = [];
    page.on("response", (response) => {
      if (response.url().endsWith(`/api/v1/buckets/${people.slug}/save`)) saves.push(response.status());
    });
    await open(page, `/b/${works.slug}/new`);
    const dialog = page.locator("dialog.bucket-form-modal");
    // What only the bucket's validator finds: the browser sends it, the server refuses it.
    const serverOnly = BAD_DOCUMENTS.filter((bad) =>
      ["a required field missing", "a wrong type", "an unknown property"].includes(bad.label),
    );
    for (const bad of serverOnly) {
      const api = await fetch(`${server.url}/api/v1/buckets/${people.slug}/save`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: ctx.cookie, ...sameOrigin(server.url) },
        body: bad.json,
      });
      const { errors } = (await api.json()) as { errors: Record<string, string[]> };
      await fieldBox(page, "person").getByRole("button", { name: "Edit Person" }).click();
      await dialog.waitFor({ state: "visible" });
      for (const [name, value] of Object.entries(bad.modal.fill)) {
        await dialog.locator(`input[name="${name}"]`).evaluate((input: HTMLInputElement, text) => (input.value = text), value);
      }
      await dialog.locator("form").evaluate((form: HTMLFormElement, inject) => {
        for (const [name, value] of Object.entries(inject))
          form.append(Object.assign(document.createElement("input"), { type: "hidden", name, value }));
      }, bad.modal.inject);
      await dialog.getByRole("button", { name: "Submit" }).click();
      await expect.poll(() => modalErrors(dialog), { timeout: 10_000 }).toEqual(shownLikeAForm(errors));
      // Spec §4/§8: the failure is logged, the modal says so and stays open.
      await dialog.locator(":scope > .form-error", { hasText: "Error saving sub-form" }).waitFor();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });
    }
    expect(saves).toEqual(serverOnly.map(() => 422));
    expect(ctx.errors.filter((error) => error.includes("Error submitting form"))).toHaveLength(serverOnly.length);
    await ctx.close();
  });
});
