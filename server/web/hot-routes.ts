import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { fullSegments, routeTree } from "./build-routes";

/*
 * Matchers for a few routes of the server build, compiled once from the paths the build gives them (app/routes.ts),
 * for answering those routes ahead of React Router's request handler (server/web/hot-api.ts). A matcher takes a path
 * only when React Router would certainly route it to the same route with the same params:
 * - its segments as they came: no %-escape (React Router decodes them), no `.data` (a single-fetch request), no
 *   trailing slash, the route's fixed segments in their own case (React Router ignores case; those go to it);
 * - not a path that a route React Router ranks higher also matches. For each other route that shares paths with a
 *   hot one, React Router's own matchRoutes is asked once, at start, which of the two a shared path goes to (of a
 *   table of the two alone, in both orders; only when the order decides, a tie in rank, is the whole table asked,
 *   which costs a few milliseconds); where the other wins, the values its fixed segments give the hot route's params
 *   go to React Router (`image` as `:slug`: a media bucket's own content route).
 * A hot route missing from the build, with an optional or splat segment, or one React Router never routes to, is an
 * error at start: a route renamed or moved in app/routes.ts changes the matcher with it, or stops the server.
 */

export interface HotRoute {
  /** The route's id in the server build: its module's path under app/ without extension, or its `id` option. */
  id: string;
  method: string;
}

export interface HotRouteMatch<Route extends HotRoute> {
  route: Route;
  params: Record<string, string>;
  /** The route's path with its params unfilled, as React Router's loader arguments name it. */
  pattern: string;
}

/** One param's value that sends a path elsewhere, compared in lower case unless the other route is case-sensitive. */
interface Refusal {
  param: number;
  value: string;
  caseSensitive: boolean;
}

/** A param's value a path takes here: anything but a slash or a %-escape. */
const PARAM_VALUE = "([^/%]+)";
/** A param's value in the paths asked of matchRoutes at start: no route has a fixed segment like it. */
const ANY_VALUE = "~any~";

/** The build's basename as a prefix of paths: "" for none or "/". */
const basePath = (build: ServerBuild) => (build.basename && build.basename !== "/" ? build.basename.replace(/\/$/, "") : "");
const isParam = (segment: string) => segment.startsWith(":");
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A path with optional segments in each of its forms (`a/:b?` → `a/:b` and `a`), as React Router explodes it. */
function explode(segments: string[]): string[][] {
  const [first, ...rest] = segments;
  if (first === undefined) return [[]];
  const tails = explode(rest);
  if (!first.endsWith("?")) return tails.map((tail) => [first, ...tail]);
  return tails.flatMap((tail) => [[first.slice(0, -1), ...tail], tail]);
}

/**
 * A path both the hot route's and another route's path match (the other's fixed segment where the hot route has a
 * param), and the param values it takes from the other's fixed segments; null when no path matches both.
 */
function sharedPath(hot: string[], other: string[], caseSensitive: boolean): { path: string; refusals: Refusal[] } | null {
  const splat = other.at(-1) === "*";
  const fixed = splat ? other.slice(0, -1) : other;
  if (splat ? fixed.length > hot.length : fixed.length !== hot.length) return null;
  const same = (a: string, b: string) => (caseSensitive ? a === b : a.toLowerCase() === b.toLowerCase());
  const path: string[] = [];
  const refusals: Refusal[] = [];
  let param = -1;
  for (const [index, segment] of hot.entries()) {
    const theirs = fixed[index];
    const theirsFixed = theirs !== undefined && !isParam(theirs);
    if (isParam(segment)) {
      param += 1;
      path.push(theirsFixed ? theirs : ANY_VALUE);
      if (theirsFixed) refusals.push({ param, value: caseSensitive ? theirs : theirs.toLowerCase(), caseSensitive });
    } else {
      if (theirsFixed && !same(theirs, segment)) return null;
      path.push(segment);
    }
  }
  return { path: `/${path.join("/")}`, refusals };
}

interface Compiled<Route extends HotRoute> {
  route: Route;
  pattern: string;
  /** The path's text before its first param. */
  start: string;
  regExp: RegExp;
  names: string[];
  /** Each: the param values with which a path goes to another route (all of them must hold). */
  refusals: Refusal[][];
}

/** Which route React Router routes a path to, of a hot route and another that both match it (or a third one). */
type Winner = (path: string, hot: RouteObject, other: RouteObject) => string | undefined;

/** A route of the build as one route with its whole path, for a table of two. */
function flatRoute(build: ServerBuild, id: string): RouteObject {
  const { index, caseSensitive } = build.routes[id] ?? {};
  const path = fullSegments(build.routes, id).join("/");
  return index ? { id, path, caseSensitive, index: true } : { id, path, caseSensitive };
}

function compile<Route extends HotRoute>(build: ServerBuild, winner: Winner, route: Route): Compiled<Route> {
  const { id } = route;
  if (!build.routes[id]) throw new Error(`The hot route ${id} is not in the server build: app/routes.ts renamed or removed it.`);
  const segments = fullSegments(build.routes, id);
  if (segments.some((segment) => segment.endsWith("?") || segment === "*")) {
    throw new Error(`The hot route ${id} has an optional or splat segment: only plain segments and :params are taken ahead.`);
  }
  const base = basePath(build);
  const pattern = `/${segments.join("/")}`;
  const hot = flatRoute(build, id);
  const refusals: Refusal[][] = [];
  for (const other of Object.values(build.routes)) {
    if (!other || other.id === id) continue;
    for (const form of explode(fullSegments(build.routes, other.id))) {
      const shared = sharedPath(segments, form, other.caseSensitive === true);
      // A third route taking the shared path ranks above both: its own shared path refuses at least as much.
      if (!shared || winner(shared.path, hot, flatRoute(build, other.id)) !== other.id) continue;
      if (shared.refusals.length === 0) throw new Error(`React Router routes every path of the hot route ${id} to ${other.id}.`);
      refusals.push(shared.refusals);
    }
  }
  const source = segments.map((segment) => (isParam(segment) ? PARAM_VALUE : escapeRegExp(segment))).join("/");
  return {
    route,
    pattern,
    start: base + pattern.slice(0, pattern.search(/\/:|$/) + 1),
    regExp: new RegExp(`^${escapeRegExp(base)}/${source}$`),
    names: segments.filter(isParam).map((segment) => segment.slice(1)),
    refusals,
  };
}

/** Whether a path's param values (`found`: a match of the route's pattern) send it to another route. */
function refused(refusals: Refusal[][], found: RegExpExecArray): boolean {
  return refusals.some((refusal) =>
    refusal.every(({ param, value, caseSensitive }) => {
      const given = found[param + 1] ?? "";
      return given.length === value.length && (caseSensitive ? given : given.toLowerCase()) === value;
    }),
  );
}

/** The longest text that every compiled route's path starts with. */
function commonStart(compiled: Compiled<HotRoute>[]): string {
  let start = compiled[0]?.start ?? "";
  for (const other of compiled) while (!other.start.startsWith(start)) start = start.slice(0, -1);
  return start;
}

/**
 * The match of a method and path name among `routes` (each answered for its one method), compiled from the build;
 * null for any path React Router might route elsewhere or with other params.
 */
export function hotRouteMatcher<Route extends HotRoute>(
  build: ServerBuild,
  routes: readonly Route[],
): (method: string, pathname: string) => HotRouteMatch<Route> | null {
  const base = basePath(build);
  const routedTo = (table: RouteObject[], path: string) => matchRoutes(table, `${base}${path}`, build.basename)?.at(-1)?.route.id;
  let wholeTable: RouteObject[] | undefined;
  // Rank decides between the two unless they tie; then the order of the whole table does, which is asked instead.
  const winner: Winner = (path, hot, other) => {
    const one = routedTo([hot, other], path);
    return one === routedTo([other, hot], path) ? one : routedTo((wholeTable ??= routeTree(build.routes)), path);
  };
  const compiled = routes.map((route) => compile(build, winner, route));
  const byMethod = new Map<string, Compiled<Route>[]>();
  for (const entry of compiled) byMethod.set(entry.route.method, [...(byMethod.get(entry.route.method) ?? []), entry]);
  const start = commonStart(compiled);
  return (method, pathname) => {
    const candidates = byMethod.get(method);
    if (!candidates || !pathname.startsWith(start) || pathname.endsWith(".data")) return null;
    for (const { route, pattern, regExp, names, refusals } of candidates) {
      const found = regExp.exec(pathname);
      if (!found || (refusals.length > 0 && refused(refusals, found))) continue;
      const params: Record<string, string> = {};
      for (let index = 0; index < names.length; index++) params[names[index] as string] = found[index + 1] as string;
      return { route, params, pattern };
    }
    return null;
  };
}
