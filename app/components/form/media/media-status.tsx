import { useTranslation } from "react-i18next";
import type { MediaKind } from "@core/media/bounds";
import { averageJobProgress, runningJob, type MediaContent } from "@core/media/wire";

/** The label of the running job (spec §4). */
export function useJobLabel() {
  const { t } = useTranslation();
  return (content: MediaContent, kind: MediaKind): string => {
    const type = t(`media.types.${kind}`);
    const job = runningJob(content);
    if (job === "transcode" || job === "media-convert") return t("media.converting", { type });
    if (job === "still-creation") return t("media.extracting", { type });
    if (job) return t("media.jobRunning", { name: job });
    return t("media.processing");
  };
}

/** While jobs are new or processing: a progress bar with the average job progress and its label. */
export function JobProgress(props: { content: MediaContent; kind: MediaKind }) {
  const label = useJobLabel()(props.content, props.kind);
  const percent = averageJobProgress(props.content);
  return (
    <div className="media-progress job-progress" data-state="processing">
      <span className="media-progress-label">{label}</span>
      <progress max={100} value={percent} aria-label={label}>
        {percent}%
      </progress>
      <span className="media-progress-percent">{percent}%</span>
    </div>
  );
}

export type UploadItem =
  | { state: "new"; filename: string }
  | { state: "uploading"; filename: string; loaded: number; total: number }
  | { state: "done"; filename: string }
  | { state: "error"; filename: string; message: string };

/** Spec §4 media upload item: 'Verifying...', 'Uploading...' with the bytes sent, done, 'Error uploading {type}'. */
export function UploadItemStatus(props: { item: UploadItem; kind: MediaKind }) {
  const { t } = useTranslation();
  const { item } = props;
  const type = t(`media.types.${props.kind}`);
  if (item.state === "new") {
    return (
      <div className="media-progress upload-item" data-state="new" role="status">
        <span className="media-progress-label">{t("media.verifying")}</span> <span className="media-filename">{item.filename}</span>
      </div>
    );
  }
  if (item.state === "uploading") {
    const percent = item.total ? Math.floor((item.loaded / item.total) * 100) : 0;
    return (
      <div className="media-progress upload-item" data-state="uploading" role="status">
        <span className="media-progress-label">{t("media.uploading")}</span> <span className="media-filename">{item.filename}</span>
        <progress max={item.total || 1} value={item.loaded} aria-label={t("media.uploading")}>
          {percent}%
        </progress>
        <span className="media-progress-percent">{percent}%</span>
      </div>
    );
  }
  if (item.state === "done") {
    return (
      <div className="media-progress upload-item" data-state="done" role="status">
        {/* The file's name shows once, in the summary above (the field now holds it). */}
        <span className="media-progress-label">{t("media.uploaded")}</span>
      </div>
    );
  }
  return (
    <div className="media-progress upload-item" data-state="error" role="status">
      <span className="media-progress-label">{t("media.uploadError", { type })}</span>{" "}
      <span className="media-filename">{item.filename}</span>
    </div>
  );
}
