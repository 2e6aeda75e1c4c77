/**
 * A batch's name and tags: their limits and the comma-separated form of ?tags= (the API's
 * upload, the console's form, the CLI's --tag). Free of Zod, so the console imports it alone.
 */

/** Limits of a batch's name and tags. */
export const BATCH_LIMITS = { name: 200, tag: 40, tags: 10 } as const;

/** The tags of a comma-separated ?tags= value, trimmed, empty ones dropped, each once. */
export function splitTags(text: string | undefined): string[] {
  if (!text) return [];
  return [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}
