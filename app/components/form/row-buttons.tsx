import { useFormMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";

/**
 * A list row's ↑, ↓ and × (spec §2): submit buttons with Conform's reorder and remove intents, so they work without
 * JavaScript. `rowName`, where given, follows each button's label ("Remove: Lisbon") to tell the rows apart.
 */
export function RowButtons(props: {
  list: string;
  index: number;
  count: number;
  sortable: boolean;
  removable: boolean;
  disabled: boolean;
  rowName?: string;
}) {
  const { t } = useTranslation();
  const form = useFormMetadata();
  const { list, index } = props;
  const label = (text: string) => (props.rowName === undefined ? text : `${text}: ${props.rowName}`);
  return (
    <div className="row-actions">
      {props.sortable ? (
        <>
          <button
            {...form.reorder.getButtonProps({ name: list, from: index, to: index - 1 })}
            disabled={props.disabled || index === 0}
            aria-label={label(t("form.moveUp"))}
          >
            ↑
          </button>
          <button
            {...form.reorder.getButtonProps({ name: list, from: index, to: index + 1 })}
            disabled={props.disabled || index === props.count - 1}
            aria-label={label(t("form.moveDown"))}
          >
            ↓
          </button>
        </>
      ) : null}
      {props.removable ? (
        <button
          {...form.remove.getButtonProps({ name: list, index })}
          className="remove"
          aria-label={label(t("form.remove"))}
          disabled={props.disabled}
        >
          ×
        </button>
      ) : null}
    </div>
  );
}
