import { parseWithZod } from "@conform-to/zod/v4";
import { createShareSchema } from "@core/content/shareables";

/** The share panel's check in the browser: the schema /shareables parses with (loaded on demand, with zod). */
export const validateShare = (formData: FormData) => parseWithZod(formData, { schema: createShareSchema });
