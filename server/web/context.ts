import type { Logger } from "pino";
import type { RemixI18Next } from "remix-i18next/server";
import type { SessionStorage } from "react-router";
import type { Config } from "@server/config";
import type { Db } from "@server/db/client";
import type { FfmpegTools } from "@server/media/ffmpeg";
import type { MediaStorage } from "@server/media/storage";
import type { JobRunner } from "@server/jobs/runner";

export interface SessionData {
  token?: string;
  hideIEWarning?: boolean;
  indexView?: "list" | "grid";
  lastVisitedPageNumber?: number;
  lastVisitedBucket?: string;
  locale?: string;
}

export interface MediaContext {
  storage: MediaStorage;
  jobs: JobRunner;
  /** Null when no ffmpeg/ffprobe was found: video fields say processing is unavailable. */
  ffmpeg: FfmpegTools | null;
}

declare module "react-router" {
  /** Everything a loader or action gets from the server, one object per request. */
  interface AppLoadContext {
    db: Db;
    config: Config;
    logger: Logger;
    requestId: string;
    nonce: string;
    clientAddress: string;
    sessionStorage: SessionStorage<SessionData>;
    languageDetector: RemixI18Next;
    version: string;
    media: MediaContext;
    /** Memo of the request's session and user, filled on first use. */
    requestState?: Promise<unknown>;
  }
}
