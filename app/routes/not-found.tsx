import { HttpError } from "@server/errors";
import { pageRoute } from "@server/web/respond";

export const loader = pageRoute(() => {
  throw new HttpError(404, "errors.notFound");
});

export default function NotFound() {
  return null;
}
