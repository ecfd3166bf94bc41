// The benchmark's sections, run in this order. Each is an async function
// (ctx) => rows; see bench/run.mjs for what ctx offers and lib/report.mjs for rows.
// To add one: write bench/sections/<name>.mjs and list it here.
import { bundle } from "./bundle.mjs";
import { contentApi } from "./content-api.mjs";
import { delivery } from "./delivery.mjs";
import { editJs } from "./edit-js.mjs";
import { editRequests } from "./edit-requests.mjs";
import { impact } from "./impact.mjs";
import { importSection } from "./import.mjs";
import { media } from "./media.mjs";
import { mediaLibrary } from "./media-library.mjs";
import { overview } from "./overview.mjs";
import { pages } from "./pages.mjs";
import { presence } from "./presence.mjs";
import { roundTrips } from "./round-trips.mjs";
import { startup } from "./startup.mjs";
import { storage } from "./storage.mjs";
import { twoServers } from "./two-servers.mjs";

export const sections = [
  { name: "startup", title: "Cold start and idle memory", run: startup },
  { name: "pages", title: "Pages under load", run: pages },
  { name: "content-api", title: "Content JSON API: save and read", run: contentApi },
  { name: "round-trips", title: "Database round trips per request (PostgreSQL, through a counting proxy)", run: roundTrips },
  { name: "delivery", title: "Delivery read API: documents, populate, 304 revalidation", run: delivery },
  { name: "overview", title: "Bucket overview with 2,000, 10,000 and 100,000 documents", run: overview },
  { name: "media-library", title: "Media library (/media) with 100,000 items", run: mediaLibrary },
  { name: "impact", title: "Impact preview of a schema change over 10,000 and 100,000 documents", run: impact },
  { name: "import", title: "Importing 100,000 documents: dry run, import, memory", run: importSection },
  { name: "edit-js", title: "Edit page JavaScript", run: editJs },
  { name: "edit-requests", title: "Edit page in Chromium: requests and time to usable", run: editRequests },
  { name: "media", title: "Media: a 1 GB upload's memory, image and video pipelines", run: media },
  { name: "bundle", title: "Offline bundle: memory while 2 GB of media stream", run: bundle },
  { name: "storage", title: "Media storage: S3 (s3rver) against the file system, same run", run: storage },
  { name: "presence", title: "Presence: 100 open edit pages while nobody types, and one change told to them", run: presence },
  { name: "two-servers", title: "Two servers on one PostgreSQL against one, same run", run: twoServers },
];
