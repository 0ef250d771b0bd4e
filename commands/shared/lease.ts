/**
 * A claim or an intent appended before the write it announces holds for a while even when that
 * write has not landed: long enough for any live writer to land it, short enough that a crashed
 * claimant frees what it held by itself. Used by the notes name claims and tag tree and by the
 * feedback board's webhook intents.
 */
export const claimLeaseMs = 30_000;
