import type { Command } from 'commander';
import { CliError } from '../../lib/errors.js';
import { serve } from '../../server.js';
import { type GlobalOptions, openContext } from '../context.js';

export function registerServe(program: Command, globals: () => GlobalOptions) {
  program
    .command('serve')
    .description('запустить веб-сервер (на пустой базе — с демо-данными)')
    .option('--port <port>', 'порт')
    .option('--host <host>', 'адрес')
    .option('--no-demo', 'не генерировать демо-данные на пустой базе')
    .action(async (opts: { port?: string; host?: string; demo: boolean }) => {
      const port = opts.port === undefined ? undefined : Number(opts.port);
      if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
        throw new CliError(`--port: ожидается число 0–65535 (получено «${opts.port}»)`, 2);
      const ctx = await openContext(globals(), 'serve', {
        ...(port !== undefined ? { port } : {}),
        ...(opts.host ? { host: opts.host } : {}),
      });
      try {
        await serve(ctx, { demo: opts.demo });
      } catch (error) {
        await ctx.close();
        throw error;
      }
    });
}
