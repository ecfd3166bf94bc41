import { Component, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { isRouteErrorResponse } from "react-router";
import { useRequestId } from "~/lib/nonce";

interface Described {
  status: number;
  messageKey?: string;
  params?: Record<string, unknown>;
  message?: string;
}

/** A page refusal's data: a message of the catalogue (server/web/respond.ts pageRoute). */
const isMessage = (value: unknown): value is { key: string; params?: Record<string, unknown> } =>
  typeof value === "object" && value !== null && typeof (value as { key?: unknown }).key === "string";

function describe(error: unknown): Described {
  if (isRouteErrorResponse(error)) {
    if (isMessage(error.data)) return { status: error.status, messageKey: error.data.key, params: error.data.params };
    if (error.status === 404) return { status: 404, messageKey: "errors.notFound" };
    if (error.status === 503) return { status: 503, messageKey: "errors.databaseUnavailable" };
    if (error.status === 403) return { status: 403, messageKey: "errors.forbidden" };
    const message = typeof error.data === "string" ? error.data : error.statusText;
    return { status: error.status, message: message || undefined, messageKey: message ? undefined : "errors.generic" };
  }
  return { status: 500, messageKey: "errors.generic" };
}

/** Big status code and message; unexpected errors show a reference, never a stack trace. */
export function ErrorPage({ error }: { error: unknown }) {
  return (
    <ErrorPageFailureBoundary>
      <ErrorPageContent error={error} />
    </ErrorPageFailureBoundary>
  );
}

function ErrorPageContent({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const requestId = useRequestId();
  const { status, messageKey, params, message } = describe(error);
  return (
    <section className="error-page">
      <h1 className="error-status">{status}</h1>
      <p className="error-message">{messageKey ? t(messageKey, params) : message}</p>
      {status >= 500 && requestId ? <p className="error-reference">{t("errors.reference", { id: requestId })}</p> : null}
      <a href="/" className="button">
        {t("errors.goHome")}
      </a>
    </section>
  );
}

/** If showing the error page fails too, say so plainly (spec §8). */
class ErrorPageFailureBoundary extends Component<{ children: ReactNode }, { failure: Error | null }> {
  state = { failure: null as Error | null };
  static getDerivedStateFromError(failure: Error) {
    return { failure };
  }
  render() {
    if (!this.state.failure) return this.props.children;
    return <ErrorPageFailure details={this.state.failure.message} />;
  }
}

export function ErrorPageFailure({ details }: { details?: string }) {
  return (
    <section className="error-page">
      <h1 className="error-message">An error occurred while showing the error page</h1>
      {details ? <pre className="error-details">{details}</pre> : null}
      <a href="/" className="button">
        Go back to home
      </a>
    </section>
  );
}
