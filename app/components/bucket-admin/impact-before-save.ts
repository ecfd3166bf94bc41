import { useEffect, useRef, type SyntheticEvent } from "react";
import { useSchemaImpact } from "~/components/schema-impact";
import { confirmedBreaking, impactNeedsConfirmation } from "@core/schema/impact";

/*
 * Saving a changed schema first streams its impact on the stored documents (with JavaScript; without, the server's
 * save answers with the same report). Nothing breaks: the save goes on. Something breaks: the report shows and the
 * save waits for the admin's explicit confirmation. The server checks again in any case.
 */

/**
 * The bucket form's submit handler (wrapping Conform's `conformSubmit`) and the impact check's state. `slug` is null
 * for a new bucket (nothing stored to break); `savedText` is the schema as saved (unchanged: no check).
 */
export function useImpactBeforeSave(
  slug: string | null,
  savedText: string,
  conformSubmit: (event: SyntheticEvent<HTMLFormElement, SubmitEvent>) => void,
) {
  const impact = useSchemaImpact(slug ?? "");
  const harmlessText = useRef<string | null>(null);
  const heldSubmit = useRef<{ form: HTMLFormElement; submitter: HTMLElement | null } | null>(null);
  const onSubmit = (event: SyntheticEvent<HTMLFormElement, SubmitEvent>) => {
    conformSubmit(event);
    if (event.defaultPrevented || slug === null) return;
    const submitter = event.nativeEvent.submitter;
    const posted = new FormData(event.currentTarget, submitter);
    const text = posted.get("jsonSchema");
    if ((posted.get("intent") ?? "save") !== "save" || typeof text !== "string") return;
    if (text === savedText || text === harmlessText.current || confirmedBreaking(posted)) return;
    event.preventDefault();
    heldSubmit.current = { form: event.currentTarget, submitter };
    impact.check(text);
  };
  const impactState = impact.state;
  useEffect(() => {
    const held = heldSubmit.current;
    if (!held || impactState.status === "idle" || impactState.status === "running") return;
    heldSubmit.current = null;
    const text = new FormData(held.form).get("jsonSchema");
    // A failed check leaves the decision to the server's own check on save.
    if (impactState.status === "error" || !impactNeedsConfirmation(impactState.report)) {
      harmlessText.current = typeof text === "string" ? text : null;
      held.form.requestSubmit(held.submitter);
    }
  }, [impactState]);
  return { impactState, onSubmit };
}
