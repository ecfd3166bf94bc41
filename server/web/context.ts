import type { RemixI18Next } from "remix-i18next/server";
import type { SessionStorage } from "react-router";
import type { Services } from "@server/services";
import type { PresenceHub } from "@server/presence/hub";
import type { ImportRunner } from "@server/content/import-runner";

export interface SessionData {
  token?: string;
  hideIEWarning?: boolean;
  indexView?: "list" | "grid";
  lastVisitedPageNumber?: number;
  lastVisitedBucket?: string;
  locale?: string;
}

declare module "react-router" {
  /** Everything a loader or action gets from the server, one object per request. */
  interface AppLoadContext extends Services {
    requestId: string;
    nonce: string;
    clientAddress: string;
    sessionStorage: SessionStorage<SessionData>;
    languageDetector: RemixI18Next;
    /** Who has which document open, and their pages' event streams (server/presence/hub.ts). */
    presence: PresenceHub;
    /** The imports of documents running in this server's background (server/content/import-runner.ts). */
    imports: ImportRunner;
    /** Memo of the request's session and user, filled on first use. */
    requestState?: Promise<unknown>;
  }
}
