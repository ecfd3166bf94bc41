import type { Logger } from "pino";
import type { RemixI18Next } from "remix-i18next/server";
import type { SessionStorage } from "react-router";
import type { Config } from "../../server/config";
import type { Db } from "../../server/db/client";

export interface SessionData {
  token?: string;
  hideIEWarning?: boolean;
  indexView?: "list" | "grid";
  lastVisitedPageNumber?: number;
  lastVisitedBucket?: string;
  locale?: string;
}

/** Everything a loader or action gets from the server, one object per request. */
export interface VitrineContext {
  db: Db;
  config: Config;
  logger: Logger;
  requestId: string;
  nonce: string;
  clientAddress: string;
  sessionStorage: SessionStorage<SessionData>;
  languageDetector: RemixI18Next;
  version: string;
  /** Memo of the request's session and user, filled on first use. */
  requestState?: Promise<unknown>;
}

declare module "react-router" {
  interface AppLoadContext extends VitrineContext {}
}
