/**
 * Many JSON documents as one text parameter: joined by the record separator (U+001E), which
 * JSON text never holds unescaped; a null as an empty document. In SQL,
 * `unnest(string_to_array($n::text, chr(30), ''))` gives them back one per row (NULL for an
 * empty one), as text (stored as it is in a text column, lexed once by a cast to json or jsonb). The alternatives cost more: a
 * text[] of documents makes the driver escape every document again for the array literal,
 * and one JSON array makes PostgreSQL lex it twice (the parameter's input, then the split).
 */
export const jsonDocumentsParam = (documents: readonly (string | null)[]): string =>
  documents.map((d) => d ?? '').join('\u001e');

/** The SQL that splits a jsonDocumentsParam parameter into rows (NULL for an empty document). */
export const jsonDocumentsSql = (param: string): string => `unnest(string_to_array(${param}::text, chr(30), ''))`;
