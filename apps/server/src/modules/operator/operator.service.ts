import { ROLES, type Role } from '@rally/shared/catalog/accounts';
import { emailSchema, passwordStrengthProblem } from '@rally/shared/contracts/auth';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { users } from '../../db/schema/users';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '../../lib/common-passwords';
import { isUniqueViolation } from '../../lib/errors';
import { databaseFileStore, type FileStore } from '../../lib/file-store';
import { hashPassword } from '../../lib/passwords';
import { onlyRow } from '../../lib/sql-text';
import { newRiderCode, newVerificationCode } from '../../lib/tokens';
import { recordActivity } from '../activities/activities.service';
import { createResetLink } from '../password-resets/password-resets.service';
import { backupDatabase, RestoreRefusedError, restoreDatabase } from './backup';
import { seedDemo } from './seed-demo';

export class OperatorError extends Error {}

export interface CreateUserArgs {
  email?: string;
  password?: string;
  role?: string;
  'first-name'?: string;
  'last-name'?: string;
}

/** An active, verified account of any role, for operators (e.g. the first admin). */
export async function createUser(db: Db, args: CreateUserArgs): Promise<string> {
  const usage = 'Usage: npm run cli -- create-user --email E --password P --role R [--first-name F --last-name L]';
  if (!args.email || !args.password || !args.role) throw new OperatorError(`Missing arguments.\n${usage}`);
  const email = emailSchema.safeParse(args.email);
  if (!email.success) throw new OperatorError(`Invalid email: ${args.email}`);
  if (!(ROLES as readonly string[]).includes(args.role)) {
    throw new OperatorError(`Unknown role "${args.role}". Choose one of: ${ROLES.join(', ')}`);
  }
  const weak = passwordStrengthProblem(args.password);
  if (weak) throw new OperatorError(`Weak password: ${weak}`);
  if (isCommonPassword(args.password)) throw new OperatorError(`Weak password: ${COMMON_PASSWORD_MESSAGE}`);
  const role = args.role as Role;
  const passwordHash = await hashPassword(args.password);
  const firstName = args['first-name']?.trim() || role.charAt(0).toUpperCase() + role.slice(1);
  const lastName = args['last-name']?.trim() || 'Account';
  try {
    await db.transaction(async (tx) => {
      const user = onlyRow(
        await tx
          .insert(users)
          .values({
            email: email.data,
            passwordHash,
            firstName,
            lastName,
            role,
            status: 'active',
          })
          .returning({ id: users.id }),
      );
      await tx.insert(entries).values({
        userId: user.id,
        verificationCode: newVerificationCode(),
        riderCode: newRiderCode(),
        status: 'verified',
        verifiedAt: new Date(),
        notes: 'Created verified by an operator',
      });
      await recordActivity(tx, {
        type: 'user_registration',
        userId: user.id,
        userName: `${firstName} ${lastName}`,
        actorName: 'Operator CLI',
        description: `${role} account created for ${email.data} from the operator command line`,
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new OperatorError(`An account with the email ${email.data} already exists.`);
    throw err;
  }
  return `Created ${role} account ${email.data}. They can log in now.`;
}

export async function resetLinkFor(db: Db, email: string | undefined, publicUrl: string): Promise<string> {
  if (!email) throw new OperatorError('Usage: npm run cli -- reset-link --email E');
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .limit(1);
  if (!user) throw new OperatorError(`No account with the email ${email}`);
  const link = await createResetLink(db, user.id, publicUrl, null);
  return `One-time reset link for ${link.user.email} (expires ${link.expiresAt}):\n${link.resetUrl}`;
}

export async function hasStaffAdmin(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.role, ['admin', 'developer']))
    .limit(1);
  return !!row;
}

export const FIRST_START_HINT =
  'No admin or developer account exists yet. Create one with:\n' +
  '  npm run cli -- create-user --email you@example.com --password <Strong1Password> --role admin --first-name First --last-name Last';

/** Runs one operator command; the server's control channel and the CLI both come here. */
export async function runOperatorCommand(
  db: Db,
  publicUrl: string,
  command: string,
  args: Record<string, string>,
  fileStore: FileStore = databaseFileStore,
): Promise<{ exitCode: number; output: string }> {
  try {
    switch (command) {
      case 'create-user':
        return { exitCode: 0, output: await createUser(db, args) };
      case 'reset-link':
        return { exitCode: 0, output: await resetLinkFor(db, args.email, publicUrl) };
      case 'seed-demo':
        return { exitCode: 0, output: await seedDemo(db) };
      case 'backup':
        if (!args.file) return { exitCode: 1, output: 'Usage: npm run cli -- backup FILE' };
        return { exitCode: 0, output: await backupDatabase(db, args.file, fileStore) };
      case 'restore':
        if (!args.file) return { exitCode: 1, output: 'Usage: npm run cli -- restore FILE [--force]' };
        return { exitCode: 0, output: await restoreDatabase(db, args.file, { force: args.force === 'true' }) };
      case 'migrate':
        // Whoever opened the database (the CLI, or the server at its start) has migrated it already.
        return { exitCode: 0, output: 'The database is migrated and ready.' };
      default:
        return {
          exitCode: 1,
          output: `Unknown command "${command}". Commands: create-user, reset-link, seed-demo, backup, restore, migrate`,
        };
    }
  } catch (err) {
    if (err instanceof OperatorError || err instanceof RestoreRefusedError) return { exitCode: 1, output: err.message };
    throw err;
  }
}
