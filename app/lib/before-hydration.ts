/**
 * What the first render waits for besides the page's messages (entry.client.tsx): modules loaded with the page's
 * routes, which run before the entry, add what they fetch for the server-rendered page.
 */
export const hydrationWaitsFor: Promise<unknown>[] = [];
