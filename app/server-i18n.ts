import type { i18n as I18n } from "i18next";
import { BoundedMap } from "@core/bounded-map";

/** Enough for every message of the catalogue (a key made from data may push out the oldest). */
const MESSAGES_KEPT = 4_000;

/** i18next's getFixedT and the t it answers, loosely typed: this wrapper passes everything through. */
type FixedT = ((...args: unknown[]) => unknown) & { lng?: string; lngs?: readonly string[]; ns?: unknown; keyPrefix?: unknown };
type GetFixedT = (lng: unknown, ns?: unknown, keyPrefix?: unknown, options?: { scopeNs?: unknown }) => FixedT;

/**
 * A server render's i18next view whose `t` remembers the messages it was asked for without parameters. i18next's own
 * `t` copies its options object (fifty settings) and resolves the key anew on every call, and a page asks for the
 * same few dozen messages each time. The catalogues never change in a server process, so a message once put into
 * words stays right; one asked with parameters (interpolation, plurals, context) is translated as before.
 */
export function withRememberedMessages(view: I18n): I18n {
  const fixedTs = new Map<string, FixedT>();
  const getFixedT = (view.getFixedT as unknown as GetFixedT).bind(view);
  const remembering: GetFixedT = (lng, ns, keyPrefix, options) => {
    const name = `${String(lng)}|${String(ns)}|${String(keyPrefix)}|${String(options?.scopeNs)}`;
    let t = fixedTs.get(name);
    if (!t) fixedTs.set(name, (t = rememberMessages(getFixedT(lng, ns, keyPrefix, options))));
    return t;
  };
  view.getFixedT = remembering as unknown as I18n["getFixedT"];
  return view;
}

function rememberMessages(t: FixedT): FixedT {
  const messages = new BoundedMap<string, unknown>(MESSAGES_KEPT);
  const remembering = (...args: unknown[]): unknown => {
    const [key] = args;
    if (args.length !== 1 || typeof key !== "string") return t(...args);
    let message = messages.get(key);
    if (message === undefined) messages.set(key, (message = t(key)));
    return message;
  };
  // What i18next's fixed t carries, for whoever reads it.
  return Object.assign(remembering, { lng: t.lng, lngs: t.lngs, ns: t.ns, keyPrefix: t.keyPrefix });
}
