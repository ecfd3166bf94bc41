import BucketOverview, { meta as overviewMeta, overviewAction, overviewLoader } from "../../bucket-overview";

// /dle-sessies/{bucket}: the sessions of a learning environment.

export const loader = overviewLoader("dle-sessies");
export const action = overviewAction("dle-sessies");
export const meta = overviewMeta;
export default BucketOverview;
