import {
  CONTROL_CHARACTERS_MESSAGE,
  hasForbiddenInSecret,
  ROLE_LABELS,
  ROLES,
  type Role,
  USERNAME_PATTERN,
  USERNAME_RULE,
} from '@cena-metra/contract';
import type { Command } from 'commander';
import type { Db } from '../../db/driver.js';
import { printable } from '../../ingest/snapshot.js';
import { CliError } from '../../lib/errors.js';
import { cliActor } from '../../use-cases/host.js';
import {
  changePassword,
  changeUser,
  createUser,
  getUserByName,
  listUsers,
  removeUser,
} from '../../use-cases/users.js';
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
  if (hasForbiddenInSecret(password)) throw new CliError(`пароль: ${CONTROL_CHARACTERS_MESSAGE}`, 2);
  return password;
}

function checkName(name: string): string {
  if (!USERNAME_PATTERN.test(name))
    throw new CliError(
      `имя пользователя: ${USERNAME_RULE} (получено «${printable(name.slice(0, 60))}${name.length > 60 ? '…' : ''}»)`,
      2,
    );
  return name;
}

function checkRole(role: string): Role {
  if (!(ROLES as readonly string[]).includes(role))
    throw new CliError(
      `--role: одна из ролей ${ROLES.join(', ')} (получено «${printable(role.slice(0, 30))}»)`,
      2,
    );
  return role as Role;
}

async function userId(db: Db, name: string): Promise<number> {
  const found = await getUserByName(db, name);
  if (!found) throw new CliError(`пользователь ${printable(name.slice(0, 100))} не найден`, 1);
  return found.id;
}

export function registerUser(program: Command, globals: () => GlobalOptions) {
  const user = program.command('user').description('учётные записи');
  user
    .command('add')
    .argument('<name>')
    .option('--password <password>', 'пароль (иначе читается из stdin)')
    .option('--role <role>', `роль: ${ROLES.join(', ')} (первый пользователь — всегда admin)`, 'analyst')
    .action(async (name: string, opts: { password?: string; role: string }) => {
      checkName(name);
      const role = checkRole(opts.role);
      const password = checkPassword(opts.password ?? (await readPasswordFromStdin()));
      const ctx = await openContext(globals(), 'user');
      try {
        const { user: made } = await createUser(ctx.db, cliActor(), { username: name, role, password });
        process.stdout.write(`пользователь ${name} создан: ${ROLE_LABELS[made.role].toLowerCase()}\n`);
      } finally {
        await ctx.close();
      }
    });
  user
    .command('role')
    .description('сменить роль (последнего администратора не снять)')
    .argument('<name>')
    .argument('<role>', ROLES.join(' | '))
    .action(async (name: string, roleText: string) => {
      const role = checkRole(roleText);
      const ctx = await openContext(globals(), 'user');
      try {
        await changeUser(ctx.db, cliActor(), await userId(ctx.db, name), { role });
        process.stdout.write(`роль ${name}: ${ROLE_LABELS[role].toLowerCase()}\n`);
      } finally {
        await ctx.close();
      }
    });
  for (const [command, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const)
    user
      .command(command)
      .description(disabled ? 'отключить: вход закрыт, сеансы завершаются' : 'включить снова')
      .argument('<name>')
      .action(async (name: string) => {
        const ctx = await openContext(globals(), 'user');
        try {
          await changeUser(ctx.db, cliActor(), await userId(ctx.db, name), { disabled });
          process.stdout.write(
            disabled ? `пользователь ${name} отключён, сеансы завершены\n` : `пользователь ${name} включён\n`,
          );
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
        await changePassword(ctx.db, cliActor(), name, password);
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
          роль: r.role,
          отключён: r.disabled ? 'да' : 'нет',
          создан: r.createdAt.slice(0, 19).replace('T', ' '),
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
        await removeUser(ctx.db, cliActor(), name);
        process.stdout.write(`пользователь ${name} удалён\n`);
      } finally {
        await ctx.close();
      }
    });
}
