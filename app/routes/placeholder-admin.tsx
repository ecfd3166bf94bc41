import { Placeholder } from "../components/placeholder";
import { requireAdmin } from "../../server/web/guards";
import type { Route } from "./+types/placeholder-admin";

// Each nested route guards itself too: loaders run in parallel, and a child's data must never leak.
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return null;
}

export default function AdminPlaceholder() {
  return <Placeholder />;
}
