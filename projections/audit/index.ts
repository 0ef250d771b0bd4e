export * from './event-types.js';
export * from './projector.js';
export * from './queries.js';
