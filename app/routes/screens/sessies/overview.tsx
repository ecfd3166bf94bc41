import BucketOverview, { meta as overviewMeta, overviewAction, overviewLoader } from "../../bucket-overview";

// /sessies/{bucket}: the sessions of a sessies bucket.

export const loader = overviewLoader("sessies");
export const action = overviewAction("sessies");
export const meta = overviewMeta;
export default BucketOverview;
