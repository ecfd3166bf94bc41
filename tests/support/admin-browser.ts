import type { Page } from "playwright-core";
import { runsScripts } from "./browser";

/** Replaces a bucket's schema on /settings/buckets/{slug}: in the CodeMirror editor with JavaScript, in the textarea without. */
export async function setSchema(page: Page, text: string): Promise<void> {
  if (runsScripts(page)) {
    const editor = page.locator(".schema-editor-cm .cm-content");
    await editor.waitFor();
    await editor.fill(text);
  } else {
    await page.locator('textarea[name="jsonSchema"]').fill(text);
  }
}
