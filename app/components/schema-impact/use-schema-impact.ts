import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "~/lib/api-client";
import { ImpactInterruptedError, streamSchemaImpact } from "~/lib/impact-stream";
import type { ImpactProgress, ImpactReport } from "@core/schema/impact";

export type SchemaImpactState =
  | { status: "idle" }
  | { status: "running"; progress: ImpactProgress | null }
  | { status: "done"; report: ImpactReport }
  /** `message` is the server's words (already in the admin's language); `key` a catalogue key of ours. */
  | { status: "error"; message?: string; key?: "schemaImpact.errors.interrupted" | "schemaImpact.errors.failed" };

/**
 * The impact preview of a bucket's proposed schema, streamed: `check(schemaText)` starts it (stopping one still
 * running), the state follows its progress to the report. Leaving the page stops it.
 */
export function useSchemaImpact(slug: string) {
  const [state, setState] = useState<SchemaImpactState>({ status: "idle" });
  const running = useRef<AbortController | null>(null);

  const stop = useCallback(() => {
    running.current?.abort();
    running.current = null;
  }, []);
  useEffect(() => stop, [stop]);

  const check = useCallback(
    (schemaText: string) => {
      stop();
      const controller = new AbortController();
      running.current = controller;
      setState({ status: "running", progress: null });
      streamSchemaImpact(slug, schemaText, {
        signal: controller.signal,
        onProgress: (progress) => {
          if (!controller.signal.aborted) setState({ status: "running", progress });
        },
      }).then(
        (report) => {
          if (!controller.signal.aborted) setState({ status: "done", report });
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          if (error instanceof ImpactInterruptedError) setState({ status: "error", key: "schemaImpact.errors.interrupted" });
          else if (error instanceof ApiError && error.status !== 0) setState({ status: "error", message: error.message });
          else
            setState({
              status: "error",
              key: "schemaImpact.errors.failed",
              message: error instanceof Error ? error.message : String(error),
            });
        },
      );
    },
    [slug, stop],
  );

  return { state, check, stop };
}
