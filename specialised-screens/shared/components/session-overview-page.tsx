import { useEffect, useRef, useState, useSyncExternalStore, type DragEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher, useLocation } from "react-router";
import { OverviewFrame } from "~/components/overview";
import { OverviewTable, RowActions, type RowLabels } from "~/components/overview-table";
import { SelectBox } from "~/components/bulk-bar";
import type { WhereUsed } from "@core/content/references";
import { documentPath, type ScreenBucket } from "@core/content/screens";
import { formatDuration, movedOrder, type MoveTarget, type SessionCard } from "../session-overview";
import { AvailabilityText, Still } from "./session-card-parts";
import { PublicationBadge } from "~/components/publishing/publication-badge";
import type { PublicationState } from "@core/content/publication";
import { pageTitle } from "~/lib/page-title";
import "~/styles/session-overview.css";
import { OverviewEmpty } from "~/components/overview-empty";

/*
 * The session overviews' page (/sessies/{bucket}, /dle-sessies/{bucket}): sessions as clip cards (grid) or rows with a
 * small still (list). On dle-sessies the order is the stored one: Move up / Move down are form posts (a fetcher's
 * with JavaScript), and with JavaScript a card or row can be dragged onto another place (the same post).
 */

export interface SessionOverviewData {
  bucket: ScreenBucket & { name: string };
  cards: SessionCard[];
  page: number;
  hasNext: boolean;
  pages: number | null;
  search: string;
  /** The publication state filter, null for all. */
  state: PublicationState | null;
  view: "list" | "grid";
  confirmDelete: string | null;
  whereUsed: WhereUsed | null;
  deleted: boolean;
  reorder: { enabled: boolean; previousId: string | null; nextId: string | null } | null;
}

type ActionData = { deleteConflict: boolean } | { moveRefused: true } | { moved: string } | undefined;

/** A session's move buttons: up puts it before its previous neighbour, down after its next one. */
const MOVES = [
  { direction: "up", side: "before", label: "sessionOverview.moveUpLabel", text: "sessionOverview.moveUp" },
  { direction: "down", side: "after", label: "sessionOverview.moveDownLabel", text: "sessionOverview.moveDown" },
] as const;

/** Both overviews' title: their bucket's name. */
export const sessionOverviewMeta = ({
  loaderData,
  matches,
}: {
  loaderData?: Pick<SessionOverviewData, "bucket">;
  matches: Parameters<typeof pageTitle>[0];
}) => pageTitle(matches, loaderData?.bucket.name);

const noSubscription = () => () => undefined;
const formText = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

export function SessionOverviewPage({ loaderData, actionData }: { loaderData: SessionOverviewData; actionData?: ActionData }) {
  const { t } = useTranslation();
  const { bucket, view, reorder } = loaderData;
  const fetcher = useFetcher<ActionData>();
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const [dragged, setDragged] = useState<string | null>(null);
  const [dropAt, setDropAt] = useState<{ id: string; side: "before" | "after" } | null>(null);
  const lastMove = useRef<{ id: string; direction: "up" | "down" } | null>(null);

  // While a move is on its way, the page shows it already (when both sessions are on this page).
  let cards = loaderData.cards;
  const pending = fetcher.formData;
  if (pending?.get("intent") === "move") {
    const target: MoveTarget = formText(pending, "before")
      ? { before: formText(pending, "before") }
      : { after: formText(pending, "after") };
    const order = movedOrder(
      cards.map((card) => card.contentId),
      formText(pending, "contentId"),
      target,
    );
    const byId = new Map(cards.map((card) => [card.contentId, card]));
    if (order) cards = order.flatMap((contentId) => byId.get(contentId) ?? []);
  }
  const orderKey = cards.map((card) => card.contentId).join();

  // After a move the moved session's button keeps the focus (or its other button, at an end), so keys go on moving it.
  useEffect(() => {
    const move = lastMove.current;
    if (!move) return;
    const buttons = [move.direction, move.direction === "up" ? "down" : "up"].map((direction) =>
      document.querySelector<HTMLButtonElement>(`button[data-move="${direction}"][data-session="${move.id}"]`),
    );
    buttons.find((button) => button && !button.disabled)?.focus();
  }, [orderKey]);

  const canReorder = !!reorder?.enabled;
  const refused = (actionData && "moveRefused" in actionData) || (fetcher.data && "moveRefused" in fetcher.data);
  const toDelete = cards.find((card) => card.contentId === loaderData.confirmDelete);
  const rowLabels: RowLabels = { duplicate: t("form.duplicate"), delete: t("form.delete") };
  const routerLocation = useLocation();
  const here = routerLocation.pathname + routerLocation.search;

  const dragProps = (card: SessionCard) => {
    if (!canReorder || !hydrated) return {};
    const sideOf = (event: DragEvent<HTMLElement>) => {
      const box = event.currentTarget.getBoundingClientRect();
      return view === "grid"
        ? event.clientX < box.left + box.width / 2
          ? "before"
          : "after"
        : event.clientY < box.top + box.height / 2
          ? "before"
          : "after";
    };
    return {
      draggable: true,
      onDragStart: (event: DragEvent<HTMLElement>) => {
        event.dataTransfer.effectAllowed = "move";
        event.dataTransfer.setData("text/plain", card.contentId);
        setDragged(card.contentId);
      },
      onDragOver: (event: DragEvent<HTMLElement>) => {
        if (!dragged || dragged === card.contentId) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = "move";
        const side = sideOf(event);
        if (dropAt?.id !== card.contentId || dropAt.side !== side) setDropAt({ id: card.contentId, side });
      },
      onDrop: (event: DragEvent<HTMLElement>) => {
        event.preventDefault();
        if (dragged && dragged !== card.contentId) {
          lastMove.current = null;
          void fetcher.submit({ intent: "move", contentId: dragged, [sideOf(event)]: card.contentId, js: "1" }, { method: "post" });
        }
        setDragged(null);
        setDropAt(null);
      },
      onDragEnd: () => {
        setDragged(null);
        setDropAt(null);
      },
    };
  };
  const dragClass = (card: SessionCard) =>
    [dragged === card.contentId ? "dragging" : "", dropAt?.id === card.contentId ? `drop-${dropAt.side}` : ""].filter(Boolean).join(" ");

  const moveButtons = (card: SessionCard, index: number) => {
    if (!reorder || !canReorder) return null;
    const previous = index > 0 ? (cards[index - 1]?.contentId ?? null) : reorder.previousId;
    const next = index < cards.length - 1 ? (cards[index + 1]?.contentId ?? null) : reorder.nextId;
    const title = card.title || t("overview.untitled");
    return (
      <fetcher.Form method="post" className="session-move">
        <input type="hidden" name="intent" value="move" />
        <input type="hidden" name="contentId" value={card.contentId} />
        {hydrated ? <input type="hidden" name="js" value="1" /> : null}
        {MOVES.map(({ direction, side, label, text }) => {
          const neighbour = side === "before" ? previous : next;
          return (
            <button
              key={direction}
              type="submit"
              className="button small"
              name={side}
              value={neighbour ?? ""}
              disabled={!neighbour}
              data-move={direction}
              data-session={card.contentId}
              aria-label={t(label, { title })}
              onClick={() => (lastMove.current = { id: card.contentId, direction })}
            >
              {t(text)}
            </button>
          );
        })}
      </fetcher.Form>
    );
  };

  const meta = (card: SessionCard) => (
    <>
      <span>{t("sessionOverview.caseCount", { count: card.caseCount })}</span>
      <span aria-hidden="true"> · </span>
      <span className="session-duration">
        <span className="visually-hidden">{t("sessionOverview.duration")} </span>
        {card.duration === null ? "—" : formatDuration(card.duration)}
      </span>
    </>
  );

  const hereLink = (card: SessionCard) => <RowActions bucket={bucket} contentId={card.contentId} here={here} labels={rowLabels} />;

  return (
    <OverviewFrame
      className={`overview session-overview${reorder ? " ordered" : ""}`}
      data={loaderData}
      actionData={actionData}
      toDelete={toDelete}
      pageIds={cards.map((card) => card.contentId)}
      notes={
        reorder && !reorder.enabled ? (
          <p className="session-reorder-note">
            {t(loaderData.search ? "sessionOverview.reorderOffWhileSearching" : "sessionOverview.reorderOffWhileFiltering")}
          </p>
        ) : reorder && cards.length > 1 && hydrated ? (
          <p className="session-reorder-note">{t("sessionOverview.reorderHint")}</p>
        ) : null
      }
    >
      {refused ? (
        <p className="form-error" role="alert">
          {t("sessionOverview.moveRefused")}
        </p>
      ) : null}
      {cards.length === 0 ? (
        <OverviewEmpty
          filters={loaderData}
          words={{
            noResults: t("sessionOverview.noResults"),
            noneInState: t("sessionOverview.noneInState"),
            empty: t("sessionOverview.empty"),
          }}
        />
      ) : view === "grid" ? (
        <ul className="session-grid">
          {cards.map((card, index) => (
            <li key={card.contentId} className={`session-card ${dragClass(card)}`} data-session={card.contentId} {...dragProps(card)}>
              <Still card={card} />
              <div className="session-card-text">
                <Link to={documentPath(bucket, card.contentId)} className="session-title" draggable={false}>
                  {card.title || t("overview.untitled")}
                </Link>
                <span className="session-meta">{meta(card)}</span>
                {card.availability ? <AvailabilityText availability={card.availability} /> : null}
                <PublicationBadge state={card.state} />
              </div>
              <div className="session-card-actions">
                <SelectBox contentId={card.contentId} label={t("bulk.select", { title: card.title || t("overview.untitled") })} />
                {hereLink(card)}
                {moveButtons(card, index)}
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <OverviewTable
          className="content-table session-table"
          selectable
          head={
            <>
              <th scope="col">
                <span className="visually-hidden">{t("sessionOverview.still")}</span>
              </th>
              <th scope="col">{t("overview.title")}</th>
              <th scope="col">{t("sessionOverview.cases")}</th>
              {reorder ? <th scope="col">{t("sessionOverview.availability")}</th> : null}
              <th scope="col" className="state-cell">
                {t("overview.state")}
              </th>
            </>
          }
        >
          {cards.map((card, index) => (
            <tr key={card.contentId} className={dragClass(card)} data-session={card.contentId} {...dragProps(card)}>
              <td className="select-cell">
                <SelectBox contentId={card.contentId} label={t("bulk.select", { title: card.title || t("overview.untitled") })} />
              </td>
              <td className="session-still-cell">
                <Still card={card} small />
              </td>
              <td>
                <Link to={documentPath(bucket, card.contentId)} className="session-title" draggable={false}>
                  {card.title || t("overview.untitled")}
                </Link>
              </td>
              <td className="session-meta">{meta(card)}</td>
              {reorder ? <td>{card.availability ? <AvailabilityText availability={card.availability} /> : null}</td> : null}
              <td className="state-cell">
                <PublicationBadge state={card.state} />
              </td>
              <td>
                <div className="session-row-actions">
                  {hereLink(card)}
                  {moveButtons(card, index)}
                </div>
              </td>
            </tr>
          ))}
        </OverviewTable>
      )}
    </OverviewFrame>
  );
}
