import { z } from 'zod';

// One Russian error map for every schema (zod's English defaults are not what our users read): schemas
// whose message names the field set their own; the rest fall back to these, and the server prefixes the
// field's path.
z.config(z.locales.ru());

export * from './api.js';
export * from './chess.js';
export * from './classes.js';
export * from './csv.js';
export * from './dates.js';
export * from './enums.js';
export * from './errors.js';
export * from './format.js';
export * from './hedonic.js';
export * from './labels.js';
export * from './map.js';
export * from './market.js';
export * from './offer.js';
export * from './pace.js';
export * from './place.js';
export * from './registry.js';
export * from './sheet.js';
export * from './sources.js';
export * from './stats-columns.js';
export * from './tables.js';
export * from './team.js';
export * from './text.js';
export * from './watch.js';
