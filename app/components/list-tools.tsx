import type { ReactNode } from "react";
import { Form, Link } from "react-router";

/* The tools of a long list (documents, users, deliveries, versions): its search box and its pages. */

/**
 * The search box: a GET form whose `q` the loader reads; its label is hidden, the placeholder says the same.
 * `children`: more of the same GET form (a filter), before its button.
 */
export function SearchForm({
  id,
  search,
  label,
  button,
  children,
}: {
  id: string;
  search: string;
  label: string;
  button: string;
  children?: ReactNode;
}) {
  return (
    <Form method="get" role="search" className={children ? "search with-filter" : "search"}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input id={id} type="search" name="q" defaultValue={search} placeholder={label} />
      {children}
      <button type="submit" className="button small">
        {button}
      </button>
    </Form>
  );
}

/** The address of one page of a searched list: the search (and any `filters` set) kept, the page named. */
export function searchPageLink(search: string, page: number, filters: Record<string, string | null> = {}): string {
  const kept = Object.entries(filters).flatMap(([name, value]) => (value ? [[name, value]] : []));
  return `?${new URLSearchParams([...(search ? [["q", search]] : []), ...kept, ["page", String(page)]]).toString()}`;
}

export interface TextLink {
  to: string;
  text: string;
}

/** Where the list stands (`position`), between links to the page before and the page after, where there are. */
export function Pagination({
  label,
  position,
  previous,
  next,
}: {
  label: string;
  position: string;
  previous: TextLink | null;
  next: TextLink | null;
}) {
  return (
    <nav className="pagination" aria-label={label}>
      {previous ? (
        <Link to={previous.to} rel="prev">
          {previous.text}
        </Link>
      ) : null}
      <span>{position}</span>
      {next ? (
        <Link to={next.to} rel="next">
          {next.text}
        </Link>
      ) : null}
    </nav>
  );
}

/** A list page's heading, with the button that makes a new entry beside it. */
export function ListHeader({ title, create }: { title: string; create: TextLink }) {
  return (
    <header className="overview-header">
      <h1>{title}</h1>
      <Link to={create.to} className="button primary">
        {create.text}
      </Link>
    </header>
  );
}
