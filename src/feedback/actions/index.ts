export * from './accounts.js';
export * from './deps.js';
export * from './merge.js';
export * from './people.js';
export * from './products.js';
export * from './submit.js';
export * from './tokens.js';
export * from './triage.js';
