// The public surface of the pure domain. (Filled in by the domain work; keep every export here.)
export * from './errors.js';
export * from './organization/events.js';
export * from './organization/commands.js';
export * from './organization/view.js';
export * from './plans/catalogue.js';
