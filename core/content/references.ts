/** The options of a reference select (spec §1): the referenced collection's documents by title. */
export interface ReferenceOption {
  value: string;
  label: string;
}

export interface ReferenceCollection {
  /** The bucket that holds the collection, for links and sub-forms; null when the user may not see it. */
  slug: string | null;
  options: ReferenceOption[];
}
