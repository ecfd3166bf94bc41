// A page like Vitrine's signed-in home page (a title, an introduction, a grid of linked cards), of a size the bench
// chooses with ?items=N so its HTML weighs about as much as ours. The loader's data is what the page renders, as
// our root loader's bucket list is.
import { Link, useLoaderData, type LoaderFunctionArgs } from "react-router";

const MAX_ITEMS = 500;

export function loader({ request }: LoaderFunctionArgs) {
  const count = Math.min(MAX_ITEMS, Math.max(0, Number(new URL(request.url).searchParams.get("items") ?? 8) || 0));
  return {
    items: Array.from({ length: count }, (_, index) => ({
      slug: `collection-${index}`,
      name: `Collection number ${index}`,
      singleton: index % 3 === 0,
    })),
  };
}

export default function Home() {
  const { items } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>Content</h1>
      <p>Choose what to edit.</p>
      <ul className="bucket-grid">
        {items.map((item) => (
          <li key={item.slug}>
            <Link to={`/b/${item.slug}`} className="bucket-card" viewTransition>
              <span className="bucket-name">{item.name}</span>
              {item.singleton ? <span className="bucket-kind">Single page</span> : null}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
