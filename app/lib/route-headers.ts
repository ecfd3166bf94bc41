import type { HeadersFunction } from "react-router";

/**
 * React Router passes only cookies from an action to the page; a rate-limited answer's Retry-After must reach it
 * too. A route whose action can be rate limited exports this as its `headers`.
 */
export const passRetryAfter: HeadersFunction = ({ actionHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};
