import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { useTranslation } from "react-i18next";
import type { CropBounds } from "@core/media/bounds";
import { CropConstraints } from "./crop-constraints";
import type { MediaContent } from "@core/media/wire";
import { cropImage } from "~/lib/media-client";
import { MediaModal } from "./media-modal";

export interface CropRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Size {
  width: number;
  height: number;
}

/** Keeps a crop inside the image and within the property's crop bounds (original pixels, whole numbers). */
export function clampCrop(rect: CropRect, image: Size, bounds: CropBounds, anchor: "move" | "resize"): CropRect {
  const minWidth = Math.min(image.width, Math.max(1, bounds.minWidth ?? 1));
  const minHeight = Math.min(image.height, Math.max(1, bounds.minHeight ?? 1));
  const maxWidth = Math.max(minWidth, Math.min(image.width, bounds.maxWidth ?? image.width));
  const maxHeight = Math.max(minHeight, Math.min(image.height, bounds.maxHeight ?? image.height));
  let width = Math.round(Math.min(maxWidth, Math.max(minWidth, rect.width)));
  let height = Math.round(Math.min(maxHeight, Math.max(minHeight, rect.height)));
  let x = Math.round(rect.x);
  let y = Math.round(rect.y);
  if (anchor === "resize") {
    width = Math.min(width, Math.max(minWidth, image.width - x));
    height = Math.min(height, Math.max(minHeight, image.height - y));
  }
  x = Math.min(Math.max(0, x), image.width - width);
  y = Math.min(Math.max(0, y), image.height - height);
  return { x, y, width, height };
}

/** The first crop: the one stored, else the largest allowed area, centred. */
function initialCrop(image: Size, bounds: CropBounds, stored: CropRect | null | undefined): CropRect {
  if (stored) return clampCrop(stored, image, bounds, "move");
  const width = Math.min(image.width, bounds.maxWidth ?? image.width);
  const height = Math.min(image.height, bounds.maxHeight ?? image.height);
  return clampCrop({ x: (image.width - width) / 2, y: (image.height - height) / 2, width, height }, image, bounds, "move");
}

/**
 * 'Crop Image' (spec §2): a rectangle over the image (at most 500 px high)
 * that moves by dragging or with the arrow keys, and resizes by its corner
 * handle (drag, or arrow keys on the focused handle); the constraints and the
 * crop size in the original's pixels are shown. Cropping posts the
 * coordinates (POST /api/v1/media/image/crop/{id}); recropping starts from
 * the original version. With forceCrop (`required`) there is no way out but
 * cropping.
 */
export function CropModal(props: {
  content: MediaContent;
  bounds: CropBounds;
  /** The field's schema property, sent with the crop (its crop bounds). */
  property: Record<string, unknown>;
  /** The field's form's bucket and document: a crop of an item other documents use is this use's own. */
  use?: { bucket: string; document: string | null };
  required: boolean;
  onCropped: (content: MediaContent) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { content, bounds } = props;
  // Recrop starts from the original: the latest version is itself a crop.
  const source = content.originalImageVersionId
    ? `${content.url}?version=${encodeURIComponent(content.originalImageVersionId)}`
    : content.url;
  const [image, setImage] = useState<Size | null>(null);
  const [shown, setShown] = useState<Size | null>(null);
  const [crop, setCrop] = useState<CropRect | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const drag = useRef<{ mode: "move" | "resize"; startX: number; startY: number; start: CropRect } | null>(null);

  const onLoad = (event: React.SyntheticEvent<HTMLImageElement>) => {
    const element = event.currentTarget;
    const natural = { width: element.naturalWidth, height: element.naturalHeight };
    setImage(natural);
    setShown({ width: element.clientWidth, height: element.clientHeight });
    setCrop(initialCrop(natural, bounds, content.originalImageVersionId ? content.crop : null));
  };
  const scale = image && shown ? shown.width / image.width : 1;

  const begin = (mode: "move" | "resize", event: PointerEvent<HTMLElement>) => {
    if (!crop) return;
    event.preventDefault();
    event.stopPropagation();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { mode, startX: event.clientX, startY: event.clientY, start: crop };
  };
  const move = (event: PointerEvent<HTMLElement>) => {
    const current = drag.current;
    if (!current || !image) return;
    const dx = (event.clientX - current.startX) / scale;
    const dy = (event.clientY - current.startY) / scale;
    const { start } = current;
    setCrop(
      current.mode === "move"
        ? clampCrop({ ...start, x: start.x + dx, y: start.y + dy }, image, bounds, "move")
        : clampCrop({ ...start, width: start.width + dx, height: start.height + dy }, image, bounds, "resize"),
    );
  };
  const end = () => {
    drag.current = null;
  };

  const keys = (mode: "move" | "resize") => (event: KeyboardEvent<HTMLElement>) => {
    if (!crop || !image) return;
    const step = event.shiftKey ? 50 : 10;
    const delta = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[event.key];
    if (!delta) return;
    event.preventDefault();
    const [dx, dy] = delta as [number, number];
    setCrop(
      mode === "move"
        ? clampCrop({ ...crop, x: crop.x + dx, y: crop.y + dy }, image, bounds, "move")
        : clampCrop({ ...crop, width: crop.width + dx, height: crop.height + dy }, image, bounds, "resize"),
    );
  };

  const save = useCallback(async () => {
    if (!crop) return;
    setBusy(true);
    setFailure(null);
    try {
      props.onCropped(await cropImage(content.contentId, crop, props.property, props.use));
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      setBusy(false);
    }
  }, [crop, content.contentId, props]);

  return (
    <MediaModal
      title={t("media.cropTitle")}
      className="crop-modal"
      onClose={props.required ? undefined : props.onClose}
      actions={
        <>
          {props.required ? null : (
            <button type="button" className="button" onClick={props.onClose}>
              {t("media.cancel")}
            </button>
          )}
          <button type="button" className="button primary" disabled={!crop || busy} onClick={() => void save()}>
            {t("media.cropButton")}
          </button>
        </>
      }
    >
      <CropConstraints bounds={bounds} />
      <p className="crop-size" aria-live="polite">
        {crop ? t("media.cropSize", { width: crop.width, height: crop.height }) : t("media.loading")}
      </p>
      <div className="cropper">
        <img src={source} alt="" className="cropper-image" onLoad={onLoad} draggable={false} />
        {crop && image ? (
          // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- no ARIA widget role moves in two dimensions (arrow keys)
          <div
            className="crop-area"
            role="group"
            // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- focusable so that the arrow keys can move it
            tabIndex={0}
            aria-label={t("media.cropArea")}
            style={{ left: crop.x * scale, top: crop.y * scale, width: crop.width * scale, height: crop.height * scale }}
            onPointerDown={(event) => begin("move", event)}
            onPointerMove={move}
            onPointerUp={end}
            onPointerCancel={end}
            onKeyDown={keys("move")}
          >
            <span
              className="crop-handle"
              role="button"
              tabIndex={0}
              aria-label={t("media.cropResize")}
              onPointerDown={(event) => begin("resize", event)}
              onPointerMove={move}
              onPointerUp={end}
              onPointerCancel={end}
              onKeyDown={(event) => {
                event.stopPropagation();
                keys("resize")(event);
              }}
            />
          </div>
        ) : null}
      </div>
      {failure ? (
        <p className="field-error" role="alert">
          {failure}
        </p>
      ) : null}
    </MediaModal>
  );
}
