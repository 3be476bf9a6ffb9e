import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ChessReader } from './chess-reader.js';
import { MarketReader } from './market-reader.js';
import { PaceReader } from './pace-reader.js';
import { StatsReader } from './stats-reader.js';

declare module 'fastify' {
  interface FastifyInstance {
    stats: StatsReader;
    pace: PaceReader;
    market: MarketReader;
    chess: ChessReader;
  }
}

/** The readers of the kept data, each with its bounded cache in front (DESIGN §11.1). */
export const readers = fp(
  async (app: FastifyInstance, opts: { carry: number }) => {
    const market = new MarketReader();
    app.decorate('stats', new StatsReader({ carry: opts.carry }));
    app.decorate('pace', new PaceReader(opts.carry, market));
    app.decorate('market', market);
    app.decorate('chess', new ChessReader(opts.carry));
  },
  { name: 'readers' },
);
