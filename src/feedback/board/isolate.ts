/**
 * Someone's text set into a line of our own words where no markup can isolate it — a page's
 * `<title>`, a feed's plain-text title: between U+2068 FIRST STRONG ISOLATE and U+2069 POP
 * DIRECTIONAL ISOLATE (Unicode bidi algorithm, UAX #9), it is laid out in its own direction and
 * moves nothing around it. Without them a Hebrew or Arabic item title made the whole tab title
 * right to left, and " · Acme App" was shown before it, its separator on the wrong side.
 */
export const isolated = (text: string): string => `\u2068${text}\u2069`;
