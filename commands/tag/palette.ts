/**
 * The fixed tag palette. A tag's `color` is an index into this list (the spec: "index into a
 * fixed tag palette, not a hex value"), or null for no colour. Clients render the hex values;
 * the order never changes, and new colours may only be appended, so stored indexes stay valid.
 *
 *  0 red      #E53935     6 teal     #00897B
 *  1 orange   #FB8C00     7 blue     #1E88E5
 *  2 amber    #FFB300     8 indigo   #3949AB
 *  3 yellow   #FDD835     9 purple   #8E24AA
 *  4 lime     #7CB342    10 pink     #D81B60
 *  5 green    #43A047    11 grey     #757575
 */
export const tagPalette = [
  { index: 0, name: 'red', hex: '#E53935' },
  { index: 1, name: 'orange', hex: '#FB8C00' },
  { index: 2, name: 'amber', hex: '#FFB300' },
  { index: 3, name: 'yellow', hex: '#FDD835' },
  { index: 4, name: 'lime', hex: '#7CB342' },
  { index: 5, name: 'green', hex: '#43A047' },
  { index: 6, name: 'teal', hex: '#00897B' },
  { index: 7, name: 'blue', hex: '#1E88E5' },
  { index: 8, name: 'indigo', hex: '#3949AB' },
  { index: 9, name: 'purple', hex: '#8E24AA' },
  { index: 10, name: 'pink', hex: '#D81B60' },
  { index: 11, name: 'grey', hex: '#757575' },
] as const;

/** Highest valid `color` index (inclusive). */
export const maxTagColor = tagPalette.length - 1;

export function isTagColor(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= maxTagColor;
}
