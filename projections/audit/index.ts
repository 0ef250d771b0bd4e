export * from './projector.js';
export * from './queries.js';
