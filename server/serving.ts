/*
 * What answering requests needs beyond the database: React Router's build (every route module and what it
 * imports), the web layer, media, webhooks, the release poller, the housekeeping timers and the first start's demo content. server/app.ts imports this while the
 * database opens; the command line (server/cli.ts) never does.
 */
export * as serverBuild from "virtual:react-router/server-build";
export { analyseStaleTables, startMaintenance } from "./maintenance";
export { createHttpApp } from "./http";
export { startMedia } from "./media/start";
export { seedDemoContent } from "./seed";
export { WebhookDispatcher } from "./webhooks/dispatcher";
export { ReleaseScheduler } from "./content/release-scheduler";
export { PresenceHub } from "./presence/hub";
