import { HttpError } from "@server/errors";
import { apiRoute } from "@server/web/respond";

const notFound = apiRoute(() => {
  throw new HttpError(404, "api.notFound");
});

export const loader = notFound;
export const action = notFound;
