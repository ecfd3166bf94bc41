/**
 * Enter in a text field submits the form with its first submit button (HTML's implicit submission). In a bucket
 * form that would be whichever list, number-step, search or picker button comes first, so Enter could remove a
 * row. This plain Save, placed first in the form and hidden from sight, tab order and assistive technology, makes
 * Enter save, with JavaScript and without.
 */
export function DefaultSubmit() {
  return <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true" />;
}
