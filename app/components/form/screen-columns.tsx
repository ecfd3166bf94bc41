import type { ReactNode } from "react";

/** A screen's columns: its main fields, the others, and its aside (styled by the screen's class). */
export function ScreenColumns({
  fields,
  main,
  aside,
}: {
  fields: ReadonlyArray<readonly [string, ReactNode]>;
  main: readonly string[];
  aside: ReactNode;
}) {
  const byName = new Map(fields);
  const rest = fields.filter(([name]) => !main.includes(name));
  return (
    <div className="screen-columns">
      {main.length ? <div className="screen-main">{main.map((name) => byName.get(name))}</div> : null}
      <div className="screen-fields">{rest.map(([, node]) => node)}</div>
      {aside ? <aside className="screen-aside">{aside}</aside> : null}
    </div>
  );
}
