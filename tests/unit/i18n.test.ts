import { describe, expect, it, vi } from "vitest";
import { readFileSync } from "node:fs";
import { MESSAGE_FILES } from "@core/catalogue-parts";
import { catalogues } from "@core/catalogues";
import { createI18n, useInterfaceLanguage } from "~/lib/i18n";
import { normalizeLocale } from "@core/locales";

function texts(value: unknown, prefix = ""): Array<[string, unknown]> {
  if (typeof value !== "object" || value === null) return [[prefix, value]];
  return Object.entries(value).flatMap(([key, child]) => texts(child, prefix ? `${prefix}.${key}` : key));
}
const keys = (value: unknown): string[] => texts(value).map(([key]) => key);

const en = catalogues.en!;
const part = (locale: string, name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../locales/${locale}/${name}.json`, import.meta.url), "utf8"));

describe("message sets", () => {
  it("have the same keys in English and Dutch, part by part, none empty", () => {
    const seen = new Set<string>();
    for (const name of MESSAGE_FILES) {
      expect(keys(part("nl", name)).sort()).toEqual(keys(part("en", name)).sort());
      // A group lives in one part only: the browser merges the parts it fetched.
      for (const group of Object.keys(part("en", name) as object)) {
        expect(seen.has(group), `${group} in two parts`).toBe(false);
        seen.add(group);
      }
    }
    expect(keys(catalogues.nl).sort()).toEqual(keys(en).sort());
    for (const key of keys(en))
      expect(key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], en)).not.toBe("");
  });

  // Words Dutch uses as they are in English (loanwords, names, codes): every other Dutch text must differ from the
  // English one, or it was left untranslated ("Select Thumbnail", "Content" and "2 cases" once were).
  const SAME_IN_DUTCH = new Set([
    "common:nav.mainNavigation",
    "pages:ieWarning.title",
    "pages:ieWarning.unsupported",
    "pages:ieWarning.notOptimal",
    "pages:ieWarning.hide",
    "common:references.unknownValue",
    "history:history.schemaVersion",
    "history:history.item",
    "admin:screens.names.trend",
    "share:shareables.columns.document",
    "pages:sessionOverview.still",
    "admin:styleGuide.kinds.tags",
    "admin:styleGuide.kinds.video",
    "admin:styleGuide.sample.stop",
    "admin:styleGuide.sample.videoTitle",
    "admin:styleGuide.sample.trendSelectTitle",
    "admin:adminUsers.buckets",
    "admin:adminUsers.edit.status",
    "admin:adminClients.buckets",
    "admin:adminClients.bucket",
    "admin:adminClients.created.token",
    "admin:adminClients.listTitle",
    "admin:adminClients.columns.status",
    "admin:webhooks.title",
    "admin:webhooks.nav",
    "admin:webhooks.url",
    "admin:webhooks.buckets",
    "admin:webhooks.columns.url",
    "admin:webhooks.columns.buckets",
    "admin:webhooks.log.document",
    "admin:webhooks.log.status",
    "admin:settings.nav.buckets",
    "admin:settings.areas.buckets.title",
    "admin:settings.activity.areas.bucket",
    "admin:settings.activity.areas.schema",
    "admin:settings.activity.areas.webhook",
    "admin:settings.activity.areas.document",
    "admin:settings.activity.inBucket",
    "admin:help.webhooksTitle",
    "admin:settings.activity.fields.buckets",
    "admin:profile.languages.en",
    "admin:profile.languages.nl",
    "admin:support.contactTitle",
    "admin:support.email",
    "admin:support.version",
    "admin:delivery.clients.originsList",
    "admin:adminBuckets.list.title",
    "admin:adminBuckets.edit.title",
    "admin:adminBuckets.fields.slug",
    "admin:adminBuckets.fields.jsonSchema",
    "admin:adminBuckets.import.fieldError",
    "admin:adminBuckets.dialect.at",
    "admin:adminBuckets.dialect.normalization",
    "media:media.types.video",
    "media:media.jobRunning",
    "media:media.ok",
    "media:media.stillNumber",
    "media:media.requirements.codec",
    "media:media.nouns.still",
    // Release/Release is the wording Dutch users of the anchors know (issue 31); document, open: the same words.
    "common:nav.releases",
    "share:shareables.release.kind",
    "share:shareables.release.view.eyebrow",
    "share:shareables.release.view.documents_one",
    "publishing:publishing.inRelease",
    "releases:releases.title",
    "releases:releases.columns.name",
    "releases:releases.state.open",
    "releases:releases.documents_one",
    "releases:releases.itemColumns.document",
    "releases:releases.addChoose",
    "releases:releases.inRelease",
    // The media library (issue 35): words and patterns Dutch writes the same.
    "common:nav.media",
    "pages:library.bucket",
    "pages:library.uploadedBy",
    "pages:library.uses_one",
    "pages:library.uploadPage.bucket",
    "pages:library.item.durationValue",
    "pages:library.item.type",
    "pages:library.item.bucket",
    "pages:library.item.brokenUse",
    // The translation round trip (issue 34): a word Dutch writes the same.
    "pages:translations.document",
    // Documents out and in (issue 34): a format's name.
    "pages:transfer.json",
  ]);

  it("are translated: a Dutch text the same as the English one is a word Dutch shares (listed), never a forgotten one", () => {
    const leftEnglish: string[] = [];
    for (const name of MESSAGE_FILES) {
      const dutch = new Map(texts(part("nl", name)));
      for (const [key, english] of texts(part("en", name))) {
        if (dutch.get(key) === english && !SAME_IN_DUTCH.has(`${name}:${key}`)) leftEnglish.push(`${name}:${key} "${String(english)}"`);
      }
    }
    expect(leftEnglish).toEqual([]);
  });

  it("carry the spec's exact wording", () => {
    const t = createI18n("en").t;
    expect(t("errors.notFound")).toBe("This page could not be found");
    expect(t("nav.signout")).toBe("Signout");
    expect(t("nav.backToOverview")).toBe("Back to overview");
    expect(t("login.errors.unknownUser")).toBe("unknown user");
    expect(t("login.errors.incorrectPassword")).toBe("incorrect password");
    expect(t("login.errors.unknownError")).toBe("unknown error");
    expect(t("errors.errorPageFailed")).toBe("An error occurred while showing the error page");
    expect(t("errors.goHome")).toBe("Go back to home");
    expect(createI18n("nl").t("ieWarning.title")).toBe("Let op!");
  });

  it.each([
    ["en", "en"],
    ["en_US", "en"],
    ["nl-NL", "nl"],
    ["NL", "nl"],
    ["de", null],
    ["", null],
  ])("normalizes %s to %s", (input, expected) => {
    expect(normalizeLocale(input)).toBe(expected);
  });
});

describe("useInterfaceLanguage on the server", () => {
  it("adds no catalogue to an instance that has it, whichever wrapper of it useTranslation hands out", () => {
    const instance = createI18n("en");
    const added = vi.spyOn(instance.store as unknown as { addResourceBundle: () => void }, "addResourceBundle");
    // react-i18next's useTranslation answers a new object over the instance on every call: each render is a stranger.
    for (const locale of ["en", "nl", "en"] as const) useInterfaceLanguage(Object.create(instance) as typeof instance, locale);
    expect(added).not.toHaveBeenCalled();
  });
});
