import type { Logger } from "pino";
import type { Config } from "@server/config";
import type { Db } from "@server/db/client";
import type { FfmpegTools } from "@server/media/ffmpeg";
import type { MediaStorage } from "@server/media/storage";
import type { JobRunner } from "@server/jobs/runner";
import type { ScreenTable } from "@core/content/screen-table";

/** Where media files live and who processes them. */
export interface MediaServices {
  storage: MediaStorage;
  jobs: JobRunner;
  /** Null when no ffmpeg/ffprobe was found: video fields say processing is unavailable. */
  ffmpeg: FfmpegTools | null;
}

/**
 * What domain code is given to work with: the database, the configuration, the log, the media services and the
 * build's version. The web layer's load context (server/web/context.ts) contains these, so a route passes its context
 * as it is; domain code never sees the request, the session or the headers.
 */
export interface Services {
  db: Db;
  config: Config;
  logger: Logger;
  media: MediaServices;
  /** The running build's version (delivery ETags and the OpenAPI document change with it). */
  version: string;
  /** The specialised screens' table (specialised-screens/table.ts), handed in by the composition root (server/app.ts). */
  screens: ScreenTable;
}
