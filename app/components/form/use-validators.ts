import type { ValidateFunction } from "ajv";
import { useEffect, useMemo, useState } from "react";
import type { InlineSubFormData, SubFormCheck } from "@core/form/subforms";
import { loadBrowserValidator } from "~/lib/validator";

/*
 * The edit page's validators in the browser: the bucket's own, and each inline sub-form's (its bucket's), loaded as
 * the precompiled modules the server serves. Until one arrives, the form validates without it (the server checks).
 */

export function useBucketValidators(
  validatorUrl: string | null,
  inlineSubForms: Record<string, InlineSubFormData>,
): { validate: ValidateFunction | null; subForms: Record<string, SubFormCheck> } {
  const [validate, setValidate] = useState<ValidateFunction | null>(null);
  useEffect(() => {
    if (!validatorUrl) return;
    let current = true;
    loadBrowserValidator(validatorUrl).then(
      (fn) => current && setValidate(() => fn),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [validatorUrl]);

  // Inline sub-forms validate with their own buckets' validators (loaded like the page's), then the parent posts.
  const [subValidators, setSubValidators] = useState<Record<string, ValidateFunction>>({});
  useEffect(() => {
    let current = true;
    for (const [field, sub] of Object.entries(inlineSubForms)) {
      if (sub.state !== "ready" || !sub.validatorUrl) continue;
      loadBrowserValidator(sub.validatorUrl).then(
        (fn) => current && setSubValidators((loaded) => ({ ...loaded, [field]: fn })),
        () => undefined,
      );
    }
    return () => {
      current = false;
    };
  }, [inlineSubForms]);
  const subForms = useMemo(() => {
    const checks: Record<string, SubFormCheck> = {};
    for (const [field, sub] of Object.entries(inlineSubForms))
      if (sub.state === "ready") checks[field] = { schema: sub.schema, validate: subValidators[field] ?? null };
    return checks;
  }, [inlineSubForms, subValidators]);
  return { validate, subForms };
}
