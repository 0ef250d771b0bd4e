/** The `q` of a search operation, for both services (the board reads its own: searchedText). */
import { z } from 'zod';
import { searchedText } from '../../commands/shared/text.js';

/**
 * `q` of 1 to `max` characters as searched (searchedText): trimmed first, and one that shows
 * nothing — only spaces, or zero-width and format characters such as U+200B — is empty, so it is
 * refused as `q must not be empty` (400) rather than searched.
 */
export function searchQueryParam(max: number) {
  return z.string().overwrite(searchedText).min(1).max(max);
}
