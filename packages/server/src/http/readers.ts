import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ChessReader } from '../read/chess-reader.js';
import { MarketReader } from '../read/market-reader.js';
import { PaceReader } from '../read/pace-reader.js';
import type { ReadCache } from '../read/read-cache.js';
import { StatsReader } from '../read/stats-reader.js';

declare module 'fastify' {
  interface FastifyInstance {
    stats: StatsReader;
    pace: PaceReader;
    market: MarketReader;
    chess: ChessReader;
  }
}

/** The readers of the kept data, sharing the one bounded cache in front (DESIGN §11.1). */
export const readers = fp(
  async (app: FastifyInstance, opts: { carry: number; cache: ReadCache }) => {
    const { carry, cache } = opts;
    const market = new MarketReader(cache);
    app.decorate('stats', new StatsReader({ carry, cache }));
    app.decorate('pace', new PaceReader(carry, cache, market));
    app.decorate('market', market);
    app.decorate('chess', new ChessReader(carry, cache));
  },
  { name: 'readers' },
);
