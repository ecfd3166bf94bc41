import { HttpError } from "../web/http-error";

/** A refused media edit (crop, thumb, custom still): the status and message the call answers. */
export class MediaEditError extends HttpError {
  constructor(status: 400 | 403 | 404 | 409 | 413 | 415 | 422, message: string) {
    super(status, "api.text", { text: message });
  }
}
