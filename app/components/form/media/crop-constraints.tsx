import { useTranslation } from "react-i18next";
import type { CropBounds } from "@core/media/bounds";

/** The field's crop bounds as a list ('Minimum width: 800px' …), for the crop dialog and its no-JavaScript form. */
export function CropConstraints({ bounds }: { bounds: CropBounds }) {
  const { t } = useTranslation();
  const lines = [
    bounds.minWidth !== undefined ? t("media.cropMinWidth", { value: bounds.minWidth }) : null,
    bounds.maxWidth !== undefined ? t("media.cropMaxWidth", { value: bounds.maxWidth }) : null,
    bounds.minHeight !== undefined ? t("media.cropMinHeight", { value: bounds.minHeight }) : null,
    bounds.maxHeight !== undefined ? t("media.cropMaxHeight", { value: bounds.maxHeight }) : null,
  ].filter((line): line is string => line !== null);
  if (!lines.length) return null;
  return (
    <ul className="crop-constraints">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
