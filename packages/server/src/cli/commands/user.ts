import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacters } from '@cena-metra/contract';
import type { Command } from 'commander';
import { addUser, listUsers, removeUser, setPassword } from '../../auth/users.js';
import { printable } from '../../ingest/snapshot.js';
import { CliError } from '../../lib/errors.js';
import { type GlobalOptions, openContext } from '../context.js';
import { printRows } from '../output.js';

async function readPasswordFromStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('пароль: ');
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text.split(/\r?\n/)[0] ?? '';
}

function checkPassword(password: string): string {
  if (password.length < 8) throw new CliError('пароль: не короче 8 символов', 2);
  if (password.length > 200) throw new CliError('пароль: не длиннее 200 символов', 2);
  if (hasControlCharacters(password)) throw new CliError(`пароль: ${CONTROL_CHARACTERS_MESSAGE}`, 2);
  return password;
}

function checkName(name: string): string {
  if (!/^[\p{L}\p{N}_.-]{1,100}$/u.test(name))
    throw new CliError(
      `имя пользователя: 1–100 символов: буквы, цифры, _ . - (получено «${printable(name.slice(0, 60))}${name.length > 60 ? '…' : ''}»)`,
      2,
    );
  return name;
}

export function registerUser(program: Command, globals: () => GlobalOptions) {
  const user = program.command('user').description('учётные записи');
  user
    .command('add')
    .argument('<name>')
    .option('--password <password>', 'пароль (иначе читается из stdin)')
    .action(async (name: string, opts: { password?: string }) => {
      checkName(name);
      const password = checkPassword(opts.password ?? (await readPasswordFromStdin()));
      const ctx = await openContext(globals(), 'user');
      try {
        await addUser(ctx.db, name, password);
        process.stdout.write(`пользователь ${name} создан\n`);
      } finally {
        await ctx.close();
      }
    });
  user
    .command('passwd')
    .argument('<name>')
    .option('--password <password>', 'новый пароль (иначе читается из stdin)')
    .action(async (name: string, opts: { password?: string }) => {
      const password = checkPassword(opts.password ?? (await readPasswordFromStdin()));
      const ctx = await openContext(globals(), 'user');
      try {
        await setPassword(ctx.db, name, password);
        process.stdout.write(`пароль ${name} изменён, сеансы закрыты\n`);
      } finally {
        await ctx.close();
      }
    });
  user.command('list').action(async () => {
    const ctx = await openContext(globals(), 'user');
    try {
      const rows = await listUsers(ctx.db);
      printRows(
        rows.map((r) => ({
          id: r.id,
          имя: r.username,
          создан: r.created_at.slice(0, 19),
          сеансов: r.sessions,
        })),
        globals().json,
      );
    } finally {
      await ctx.close();
    }
  });
  user
    .command('remove')
    .argument('<name>')
    .action(async (name: string) => {
      const ctx = await openContext(globals(), 'user');
      try {
        await removeUser(ctx.db, name);
        process.stdout.write(`пользователь ${name} удалён\n`);
      } finally {
        await ctx.close();
      }
    });
}
