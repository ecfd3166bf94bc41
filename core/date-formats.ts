/*
 * One Intl.DateTimeFormat per language and options, kept for the life of the process or page. Building one costs
 * about as much as formatting a hundred dates with it: a page that built one per row or per render spent more on
 * formatters than on the rest of its rendering.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

export function dateTimeFormat(language: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language}\u0000${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, options);
    formats.set(key, format);
  }
  return format;
}
