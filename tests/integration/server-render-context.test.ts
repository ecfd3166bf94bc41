import type { EntryContext, ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchedRoutesOnly } from "~/server-render-context";
import { productionServerBuild } from "@tests/support/server-build";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * app/server-render-context.ts hands React Router's ServerRouter the manifest's matched routes alone. That leans on
 * React Router: the server render reads no other route of the manifest, and with route discovery "initial" the
 * browser takes the whole manifest from its own file, not from the page. Here through the production build's own
 * handler, entry and ServerRouter; an upgrade that changes either fails.
 */

let server: TestServer;
let build: ServerBuild;
const rendered: EntryContext[] = [];

beforeAll(async () => {
  build = await productionServerBuild();
  const handleRequest = build.entry.module.default;
  // The build with its entry watched: each context React Router hands app/entry.server.tsx is kept.
  const watched: ServerBuild = {
    ...build,
    entry: {
      ...build.entry,
      module: {
        ...build.entry.module,
        default: (request, status, headers, context, loadContext) => {
          rendered.push(context);
          return handleRequest(request, status, headers, context, loadContext);
        },
      },
    },
  };
  server = await startTestServer({ build: watched });
});

afterAll(() => server.stop());

describe("the server render with the matched routes alone", () => {
  it("renders a page, whose browser gets the whole manifest from its own file", async () => {
    const response = await fetch(`${server.url}/login`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const context = rendered.at(-1)!;

    // React Router's own context: its matches, the manifest and the discovery mode the pruning reads.
    const matched = context.staticHandlerContext.matches.map(({ route }) => route.id);
    expect(matched).toEqual(["root", "routes/login"]);
    expect(context.routeDiscovery.mode).toBe("initial");
    expect(Object.keys(context.manifest.routes).sort()).toEqual(Object.keys(build.routes).sort());
    expect(Object.keys(matchedRoutesOnly(context).manifest.routes)).toEqual(matched);

    // The page, rendered from the matched routes: its form, and each matched route's module for hydration.
    expect(html).toContain('type="password"');
    for (const id of matched) expect(html).toContain(JSON.stringify(context.manifest.routes[id]!.module));
    // The browser's manifest: imported from its file, none inlined in the page; the file holds every route.
    expect(html).toContain(`import ${JSON.stringify(context.manifest.url)}`);
    expect(html).not.toContain("__reactRouterManifest =");
    const manifestFile = await (await fetch(`${server.url}${context.manifest.url}`)).text();
    for (const id of Object.keys(build.routes)) expect(manifestFile, id).toContain(JSON.stringify(id));
  });
});
