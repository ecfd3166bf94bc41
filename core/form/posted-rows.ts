/** The rows a form post holds for the list `name` (`name[0]`, `name[3]` …): their indexes and values, as posted. */
export function postedRows(formData: FormData, name: string): Array<[number, string]> {
  const rows: Array<[number, string]> = [];
  const prefix = `${name}[`;
  for (const [key, value] of formData.entries()) {
    if (!key.startsWith(prefix) || typeof value !== "string") continue;
    const index = /^(\d+)\]$/.exec(key.slice(prefix.length))?.[1];
    if (index !== undefined) rows.push([Number(index), value]);
  }
  return rows;
}
