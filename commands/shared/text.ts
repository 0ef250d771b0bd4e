import { InvalidArgument } from './errors.js';

/** A required text field, already normalised: refused when empty or longer than `max`. */
export function requiredText(text: string, field: string, max: number): string {
  if (text.length === 0) throw new InvalidArgument(`${field} is required`);
  if (text.length > max) throw new InvalidArgument(`${field} must be at most ${max} characters`);
  return text;
}
