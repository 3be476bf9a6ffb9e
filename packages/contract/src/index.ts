export * from './api.js';
export * from './dates.js';
export * from './enums.js';
export * from './errors.js';
export * from './format.js';
export * from './labels.js';
export * from './market.js';
