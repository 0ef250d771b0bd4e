export * from './document.js';
export * from './projector.js';
export * from './queries.js';
