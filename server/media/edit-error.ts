/** A refused media edit (crop, thumb, custom still): the status and message the call answers. */
export class MediaEditError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 413 | 415 | 422,
    message: string,
  ) {
    super(message);
  }
}
