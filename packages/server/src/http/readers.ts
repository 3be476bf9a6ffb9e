import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ChessReader } from '../read/chess-reader.js';
import type { FairReader } from '../read/fair-reader.js';
import type { HedonicReader } from '../read/hedonic-reader.js';
import type { MarketReader } from '../read/market-reader.js';
import type { PaceReader } from '../read/pace-reader.js';
import type { StatsReader } from '../read/stats-reader.js';
import type { Readers } from '../services.js';

declare module 'fastify' {
  interface FastifyInstance {
    stats: StatsReader;
    pace: PaceReader;
    market: MarketReader;
    chess: ChessReader;
    hedonic: HedonicReader;
    fair: FairReader;
  }
}

/** The readers of the kept data (made by services.ts), as the app's decorations the routes use. */
export const readers = fp(
  async (app: FastifyInstance, opts: { readers: Readers }) => {
    app.decorate('stats', opts.readers.stats);
    app.decorate('pace', opts.readers.pace);
    app.decorate('market', opts.readers.market);
    app.decorate('chess', opts.readers.chess);
    app.decorate('hedonic', opts.readers.hedonic);
    app.decorate('fair', opts.readers.fair);
  },
  { name: 'readers' },
);
