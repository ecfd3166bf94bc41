import { Placeholder } from "../components/placeholder";
import { requireUser } from "../lib/guards.server";
import type { Route } from "./+types/placeholder";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context);
  return null;
}

export default function SignedInPlaceholder() {
  return <Placeholder />;
}
