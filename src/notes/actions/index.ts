export * from './deps.js';
export * from './devices.js';
export type { NoteFields } from './note-fields.js';
export * from './notes.js';
export * from './tag-edits.js';
export * from './tags.js';
