import { readForm } from "./read-form";
import { receiveFormPost, type FormPost } from "@server/media/form-upload";
import type { MediaStorage } from "@server/media/storage";
import type { IncomingBody } from "@server/media/upload";
import type { JsonSchema } from "@core/schema/normalize";

/** Whether a request's body is multipart/form-data (a form with files, an upload). */
export const isMultipart = (request: Request) => /^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "");

/** The request's body as the media intake reads it (server/media/upload.ts). */
export const incomingBody = (request: Request): IncomingBody => ({
  contentType: request.headers.get("Content-Type") ?? "",
  stream: request.body,
});

/**
 * Reads a bucket form post. A urlencoded body is read as usual (the 1 MiB limit of server/http.ts already applied;
 * unreadable: 400); a multipart one is streamed, its files into temporary files (server/media/form-upload.ts).
 */
export async function readFormPost(request: Request, storage: MediaStorage, schema: JsonSchema): Promise<FormPost> {
  if (isMultipart(request)) return receiveFormPost(incomingBody(request), storage, schema);
  return { formData: await readForm(request), files: [] };
}
