import { useField, useFormMetadata, useInputControl } from "@conform-to/react";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { useParams, useSubmit } from "react-router";
import { cropBounds, mediaBounds, requirementLines, tooLargeMessage, type MediaKind } from "@core/media/bounds";
import { CHOOSE_FROM_LIBRARY_FIELD, MEDIA_FILE_PREFIX, MEDIA_UPLOAD_FIELD, USE_TEXTS_FIELD, mediaFailure } from "@core/media/wire";
import { messageText } from "~/lib/i18n";
import { fetchLatestMedia, newUploadUid, pollMedia, uploadMedia } from "~/lib/media-client";
import { useBucketForm, useFieldLock } from "~/components/form/context";
import { fieldLabel, FieldShell, type FieldProps } from "~/components/form/field-shell";
import { FieldPostButton } from "~/components/form/field-post-button";
import { useMediaForm, type MediaSource } from "./context";
import { useMediaContent } from "./use-media-content";
import { DropZone } from "./drop-zone";
import { JobProgress, UploadItemStatus, type UploadItem } from "./media-status";
import { freshUrl, MediaSummary, pendingFilename, PendingSummary } from "./media-summary";
import { CropFallback, ThumbFallback } from "./no-script-edits";
import { lazyDialog, opensInBrowserOnly } from "~/lib/lazy-dialog";

/* eslint-disable max-lines -- Over 300 lines on purpose: one field in its three lives (a plain file input without
   JavaScript, an upload with its progress, a stored content with its view, crop and thumbnail dialogs), which share
   one state. Loading and polling the content: use-media-content.ts. */

// The modals open on a click (the crop modal also after an upload a field must crop): their code comes then.
const CropModal = lazyDialog(import.meta.env.SSR ? opensInBrowserOnly : () => import("./crop-modal").then((module) => module.CropModal));
const LibraryDialog = lazyDialog(
  import.meta.env.SSR ? opensInBrowserOnly : () => import("./library-dialog").then((module) => module.LibraryDialog),
);
const ThumbModal = lazyDialog(import.meta.env.SSR ? opensInBrowserOnly : () => import("./thumb-modal").then((module) => module.ThumbModal));
const ImagePreviewModal = lazyDialog(
  import.meta.env.SSR ? opensInBrowserOnly : () => import("./media-modal").then((module) => module.ImagePreviewModal),
);
const VideoPlayerModal = lazyDialog(
  import.meta.env.SSR ? opensInBrowserOnly : () => import("./media-modal").then((module) => module.VideoPlayerModal),
);

/** The media API (GET …/latest, polled while jobs run): where a form's media fields load their contents by default. */
const MEDIA_API: MediaSource = { fetchLatest: fetchLatestMedia, poll: pollMedia };

const ACCEPT: Record<MediaKind, string | undefined> = { image: "image/*", video: "video/*", file: undefined };

/**
 * Image, video and file fields (spec §2, §4). The document stores the media
 * content's contentId (a string). With JavaScript: a drop zone, uploads with
 * byte progress through POST /api/v1/media/{kind}/upload, job progress polled
 * every 2 s, view/crop/player modals. Without it: a plain file input in the
 * (multipart) form, and Upload and Delete as submit buttons.
 */
export function MediaField(props: FieldProps & { kind: MediaKind; initialUpload?: UploadItem }) {
  const { kind, schema } = props;
  const { t } = useTranslation();
  const { hydrated } = useBucketForm();
  const lock = useFieldLock();
  const media = useMediaForm();
  const source = media.source ?? MEDIA_API;
  const params = useParams();
  const bucketSlug = media.bucketSlug ?? params.bucket ?? "";
  const [meta] = useField<string>(props.name);
  const form = useFormMetadata();
  const control = useInputControl(meta);
  const submit = useSubmit();
  const contentId = typeof control.value === "string" ? control.value : "";

  const pendingName = pendingFilename(media.pending, contentId);
  const { content, setContent, problem, setProblem } = useMediaContent({
    kind,
    contentId,
    initial: contentId ? (media.contents[contentId] ?? null) : null,
    follow: hydrated && !pendingName,
    source,
  });
  const [item, setItem] = useState<UploadItem | null>(props.initialUpload ?? null);
  const [modal, setModal] = useState<"view" | "crop" | "forceCrop" | "thumb" | "library" | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  /** A file chosen in the plain input before the form hydrated: uploaded once the drop zone replaces it. */
  const chosenBeforeHydration = useRef<File | null>(null);

  const type = t(`media.types.${kind}`);
  const label = fieldLabel(props);
  const bounds = mediaBounds(kind, schema);
  const requirements = requirementLines(kind, bounds);
  const cropEnabled = kind === "image" && (schema.enableCrop === true || schema.forceCrop === true);
  const shown = content && content.contentId === contentId ? content : null;
  const videoUnavailable = kind === "video" && !media.videoProcessing;

  async function upload(file: File) {
    setProblem(null);
    setItem({ state: "new", filename: file.name });
    if (file.size > bounds.maxBytes) {
      setItem({ state: "error", filename: file.name, message: messageText(t, tooLargeMessage(bounds.maxBytes)) });
      return;
    }
    try {
      const uploaded = await uploadMedia({
        kind,
        bucket: bucketSlug,
        property: schema,
        uid: newUploadUid(),
        file,
        onProgress: (loaded, total) => setItem({ state: "uploading", filename: file.name, loaded, total }),
      });
      setItem({ state: "done", filename: file.name });
      setContent(uploaded);
      control.change(uploaded.contentId);
      if (uploaded.status === "error") setProblem(messageText(t, mediaFailure(uploaded)));
      if (kind === "image" && schema.forceCrop === true) setModal("forceCrop");
    } catch (error) {
      setItem({ state: "error", filename: file.name, message: (error as Error).message });
    }
  }

  useEffect(() => {
    const file = chosenBeforeHydration.current;
    chosenBeforeHydration.current = null;
    if (hydrated && file) void upload(file);
    // Runs when the form hydrates; upload is this render's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated]);

  function choose(files: FileList | null | undefined) {
    const file = files?.[0];
    if (file) void upload(file);
    if (fileInput.current) fileInput.current.value = "";
  }

  function remove() {
    control.change("");
    setContent(null);
    setItem(null);
    setProblem(null);
  }

  const errors = [...(item?.state === "error" ? [item.message] : []), ...(problem ? [problem] : []), ...(meta.errors ?? [])];
  const inputId = `${meta.id}-file`;
  const viewLabel = kind === "file" ? t("media.download") : t("media.view");
  // Leaves the form (kept as a draft) for the library's items that fit this field; a choice comes back in it. With
  // JavaScript the form is posted as it is, valid or not, as without (Conform would validate it first).
  const leaveBy = (edit: string) => (event: MouseEvent<HTMLButtonElement>) => {
    const element = event.currentTarget.form;
    if (!element) return;
    event.preventDefault();
    const posted = new FormData(element);
    posted.set(edit, meta.name);
    void submit(posted, { method: "post", encType: element.enctype as "multipart/form-data" });
  };
  const leaveButton = (edit: string, label: string) => (
    <FieldPostButton edit={edit} field={meta.name} formId={form.id} disabled={lock.disabled} onClick={leaveBy(edit)}>
      {t(label)}
    </FieldPostButton>
  );
  const leaves = media.library?.choose === "leave" && lock.showEditButtons;
  const fromLibrary =
    !media.library || !lock.showEditButtons ? null : leaves ? (
      leaveButton(CHOOSE_FROM_LIBRARY_FIELD, "media.fromLibrary")
    ) : (
      <button type="button" className="button small" onClick={() => setModal("library")} disabled={lock.disabled}>
        {t("media.fromLibrary")}
      </button>
    );
  // The item's texts for the exhibits, for this document's use.
  const ownTexts = leaves && shown ? leaveButton(USE_TEXTS_FIELD, "media.useTexts") : null;

  return (
    <FieldShell {...props} id={inputId} errorId={meta.errorId} errors={errors}>
      <div
        className={`media-field media-field-${kind}`}
        data-media-kind={kind}
        data-status={shown?.status ?? (contentId ? "unknown" : "empty")}
      >
        <input type="hidden" name={meta.name} value={contentId} readOnly />
        {shown ? (
          <MediaSummary content={shown} kind={kind} label={label} />
        ) : pendingName ? (
          <PendingSummary filename={pendingName} />
        ) : null}
        {shown?.missingAlt?.length ? (
          <p className="media-alt-warning">
            {t("media.missingAlt", { locales: shown.missingAlt.join(", ").toUpperCase() })}{" "}
            <a href={`/media/${shown.contentId}`} target="_blank" rel="noreferrer">
              {t("media.describe")}
            </a>
          </p>
        ) : null}
        {shown?.status === "processing" ? <JobProgress content={shown} kind={kind} /> : null}
        {shown?.status === "processing" && !hydrated && lock.showEditButtons ? (
          // Without JavaScript nothing polls: this re-renders the form (Conform's update intent of the field with its
          // own value) with the job's progress now, the input kept and nothing saved; a link would lose the input.
          <button
            {...form.update.getButtonProps({ name: meta.name, value: contentId })}
            className="button small media-refresh"
            disabled={lock.disabled}
          >
            {t("media.refreshProgress")}
          </button>
        ) : null}
        {item ? <UploadItemStatus item={item} kind={kind} /> : null}
        {videoUnavailable ? <p className="media-unavailable">{t("media.videoUnavailable")}</p> : null}

        {hydrated ? (
          <>
            {lock.showEditButtons ? (
              <DropZone
                type={type}
                inputId={inputId}
                ref={fileInput}
                onBrowse={() => fileInput.current?.click()}
                accept={ACCEPT[kind]}
                describedBy={requirements.length ? `${meta.id}-requirements` : undefined}
                disabled={lock.disabled}
                browseDisabled={videoUnavailable}
                onFiles={choose}
              />
            ) : null}
            <div className="media-actions">
              {contentId && lock.showEditButtons ? (
                <button type="button" className="button small" onClick={remove} disabled={lock.disabled}>
                  {t("media.delete")}
                </button>
              ) : null}
              {shown && kind !== "file" ? (
                <button type="button" className="button small" onClick={() => setModal("view")} disabled={lock.disabled}>
                  {viewLabel}
                </button>
              ) : null}
              {shown && kind === "file" ? (
                <a className="button small" href={`${freshUrl(shown)}&download`} download={shown.originalFilename}>
                  {viewLabel}
                </a>
              ) : null}
              {shown && kind === "video" && shown.status === "completed" && lock.showEditButtons ? (
                <button type="button" className="button small" onClick={() => setModal("thumb")} disabled={lock.disabled}>
                  {t("media.selectThumbnail")}
                </button>
              ) : null}
              {shown && cropEnabled && shown.status === "completed" && lock.showEditButtons ? (
                <button type="button" className="button small" onClick={() => setModal("crop")} disabled={lock.disabled}>
                  {shown.originalImageVersionId ? t("media.recrop") : t("media.cropButton")}
                </button>
              ) : null}
              {lock.showEditButtons ? (
                <button
                  type="button"
                  className="button small"
                  onClick={() => fileInput.current?.click()}
                  disabled={lock.disabled || videoUnavailable || item?.state === "uploading" || item?.state === "new"}
                >
                  {t("media.uploadButton")}
                </button>
              ) : null}
              {fromLibrary}
              {ownTexts}
            </div>
          </>
        ) : (
          <>
            {lock.showEditButtons ? (
              <input
                ref={(element) => () => {
                  // Unmounted when the form hydrates: keep what the user chose meanwhile.
                  chosenBeforeHydration.current = element?.files?.[0] ?? null;
                }}
                id={inputId}
                type="file"
                name={`${MEDIA_FILE_PREFIX}${meta.name}`}
                accept={ACCEPT[kind]}
                form={form.id}
                disabled={lock.disabled}
                aria-describedby={requirements.length ? `${meta.id}-requirements` : undefined}
              />
            ) : null}
            <div className="media-actions">
              {contentId && lock.showEditButtons ? (
                <button {...form.update.getButtonProps({ name: meta.name, value: "" })} className="button small" disabled={lock.disabled}>
                  {t("media.delete")}
                </button>
              ) : null}
              {shown ? (
                <a
                  className="button small"
                  href={kind === "file" ? `${freshUrl(shown)}&download` : freshUrl(shown)}
                  target={kind === "file" ? undefined : "_blank"}
                  rel="noreferrer"
                >
                  {viewLabel}
                </a>
              ) : null}
              {lock.showEditButtons ? (
                <FieldPostButton edit={MEDIA_UPLOAD_FIELD} field={meta.name} formId={form.id} disabled={lock.disabled}>
                  {t("media.uploadButton")}
                </FieldPostButton>
              ) : null}
              {fromLibrary}
              {ownTexts}
            </div>
            {shown && cropEnabled && shown.status === "completed" && lock.showEditButtons ? (
              <CropFallback
                name={meta.name}
                formId={form.id}
                content={shown}
                bounds={cropBounds(schema)}
                open={errors.length > 0}
                disabled={lock.disabled}
              />
            ) : null}
            {shown && kind === "video" && shown.status === "completed" && lock.showEditButtons ? (
              <ThumbFallback name={meta.name} formId={form.id} content={shown} disabled={lock.disabled} />
            ) : null}
          </>
        )}

        {requirements.length ? (
          <ul className="media-requirements" id={`${meta.id}-requirements`}>
            {requirements.map((line) => (
              <li key={line.key}>{messageText(t, line)}</li>
            ))}
          </ul>
        ) : null}
      </div>

      {modal === "view" && shown && kind === "image" ? (
        <ImagePreviewModal url={freshUrl(shown)} title={label} onClose={() => setModal(null)} />
      ) : null}
      {modal === "view" && shown && kind === "video" ? (
        <VideoPlayerModal
          url={freshUrl(shown)}
          poster={shown.still ?? shown.thumbs[0]?.url ?? null}
          title={label}
          onClose={() => setModal(null)}
        />
      ) : null}
      {modal === "thumb" && shown ? (
        <ThumbModal
          content={shown}
          property={schema}
          onClose={() => setModal(null)}
          onSaved={() => {
            setModal(null);
            void source
              .fetchLatest(kind, shown.contentId)
              .then(setContent, (error: unknown) => setProblem(error instanceof Error ? error.message : String(error)));
          }}
        />
      ) : null}
      {modal === "library" ? (
        <LibraryDialog
          kind={kind}
          form={bucketSlug}
          property={schema}
          label={label}
          onChosen={(chosen) => {
            setModal(null);
            control.change(chosen);
            void source.fetchLatest(kind, chosen).then(setContent, (error: unknown) => setProblem((error as Error).message));
          }}
          onClose={() => setModal(null)}
        />
      ) : null}
      {(modal === "crop" || modal === "forceCrop") && shown ? (
        <CropModal
          content={shown}
          bounds={cropBounds(schema)}
          property={schema}
          use={media.library && { bucket: bucketSlug, document: media.library.documentId }}
          required={modal === "forceCrop"}
          onCropped={(cropped) => {
            setContent(cropped);
            control.change(cropped.contentId);
            setModal(null);
          }}
          onClose={() => setModal(null)}
        />
      ) : null}
    </FieldShell>
  );
}

export const ImageField = (props: FieldProps) => <MediaField {...props} kind="image" />;
export const VideoField = (props: FieldProps) => <MediaField {...props} kind="video" />;
export const FileField = (props: FieldProps) => <MediaField {...props} kind="file" />;
