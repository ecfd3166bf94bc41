import { Placeholder } from "../components/placeholder";

export default function PublicPlaceholder() {
  return <Placeholder />;
}
