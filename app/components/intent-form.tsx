import type { ReactNode } from "react";
import { Form } from "react-router";

/**
 * A form of one button that posts `intent` to a page's action, with the hidden `fields` that say what it is for
 * (a row's id). A plain post, so it works without JavaScript.
 */
export function IntentForm(props: {
  intent: string;
  action?: string;
  fields?: Record<string, string>;
  className: string;
  disabled?: boolean;
  preventScrollReset?: boolean;
  children: ReactNode;
}) {
  return (
    <Form method="post" action={props.action} preventScrollReset={props.preventScrollReset}>
      {Object.entries(props.fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" name="intent" value={props.intent} className={props.className} disabled={props.disabled}>
        {props.children}
      </button>
    </Form>
  );
}
