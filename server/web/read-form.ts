import { HttpError } from "@server/errors";

/*
 * Apart from form-post.ts, which reads form posts with files through the media intake: route modules import this one
 * into code the browser build also sees, and it must bring nothing of the server along.
 */

/** A page's form post (urlencoded, or multipart without files); a body that cannot be read is a 400, not a crash. */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new HttpError(400, "api.formUnreadable");
  }
}

/** A text field of a form post; "" when it is missing or a file. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
