import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFetchers, useNavigation } from "react-router";

export const LOADING_BAR_DELAY_MS = 200;

/** A 2 px bar while routes and data load, shown after 200 ms; red when loading failed. */
export function LoadingBar({ failed }: { failed: boolean }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((fetcher) => fetcher.state !== "idle");
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(() => setVisible(true), LOADING_BAR_DELAY_MS);
    return () => {
      clearTimeout(timer);
      setVisible(false);
    };
  }, [busy]);
  const state = visible ? "loading" : failed ? "failed" : "idle";
  return <div className="loading-bar" data-state={state} role="progressbar" aria-label={t("loading")} aria-hidden={state === "idle"} />;
}
