// Editions (DESIGN.md §9): one year's rally each, exactly one current. The current one's
// name, dates and hotline are what the specs' event settings read and write; its
// registration window is enforced on every registration.
import { registrationClosedMessage } from '@rally/shared/catalog/editions';
import { PRICES, type Prices } from '@rally/shared/catalog/registration';
import {
  type CreateEditionRequest,
  editionOrderProblem,
  type UpdateEditionRequest,
} from '@rally/shared/contracts/editions';
import { desc, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { type EditionRow, editions } from '../../db/schema/editions';
import type { Actor } from '../../lib/actor';
import { type EditionRead, editionSql } from '../../lib/edition-of';
import { BadRequestError, ConflictError, isUniqueViolation, NotFoundError } from '../../lib/errors';
import { recordActivity } from '../activities/activities.service';

const editionNotFound = () => new NotFoundError('Edition not found', 'EDITION_NOT_FOUND');
const nameTaken = (name: string) =>
  new ConflictError(`An edition named "${name}" already exists; choose another name`, 'EDITION_NAME_TAKEN');

/**
 * The edition read: the current one, or the past one a staff read names (`edition`), which
 * then answers as current (its name, dates and hotline), as it did while it ran. The upgrade
 * made a current one and nothing removes it, so its absence is a broken install.
 */
export async function currentEdition(db: DbOrTx, edition?: EditionRead): Promise<EditionRow> {
  const [row] = await db
    .select()
    .from(editions)
    .where(eq(editions.id, editionSql(edition)))
    .limit(1);
  if (!row) throw new Error('No current edition: the database was not migrated (run the server once to upgrade it)');
  return { ...row, current: true };
}

/** Newest first: by year, then by when it was made. */
export async function listEditions(db: DbOrTx): Promise<EditionRow[]> {
  return db.select().from(editions).orderBy(desc(editions.year), desc(editions.createdAt));
}

export async function findEdition(db: DbOrTx, id: string): Promise<EditionRow> {
  const [row] = await db.select().from(editions).where(eq(editions.id, id)).limit(1);
  if (!row) throw editionNotFound();
  return row;
}

/**
 * Refuses a registration outside the current edition's window (409 REGISTRATION_CLOSED),
 * naming the dates. Both the specs' registration and a returning rider's entry call it.
 */
export async function assertRegistrationOpen(db: DbOrTx, now: Date): Promise<EditionRow> {
  const edition = await currentEdition(db);
  const message = registrationClosedMessage(edition.name, windowOf(edition), now);
  if (message) throw new ConflictError(message, 'REGISTRATION_CLOSED');
  return edition;
}

export function windowOf(row: Pick<EditionRow, 'registrationOpensAt' | 'registrationClosesAt'>) {
  return {
    registrationOpensAt: row.registrationOpensAt?.toISOString() ?? null,
    registrationClosesAt: row.registrationClosesAt?.toISOString() ?? null,
  };
}

const moment = (iso: string | null | undefined) =>
  iso === undefined ? undefined : iso === null ? null : new Date(iso);

/** The order rules (shared contract) on the edition as a change would leave it. */
function assertInOrder(row: Pick<EditionRow, 'startsOn' | 'endsOn' | 'registrationOpensAt' | 'registrationClosesAt'>) {
  const problem = editionOrderProblem(row);
  if (problem) throw new BadRequestError(problem);
}

/**
 * The next edition, not current yet. With `copyFrom`, what it does not name is taken from
 * that edition's settings (its hotline); the dates and window are always its own.
 */
export async function createEdition(db: Db, body: CreateEditionRequest, actor: Actor): Promise<EditionRow> {
  return db.transaction(async (tx) => {
    const source = body.copyFrom ? await findEdition(tx, body.copyFrom) : null;
    const values = {
      name: body.name,
      year: body.year,
      startsOn: body.startsOn,
      endsOn: body.endsOn,
      registrationOpensAt: moment(body.registrationOpensAt) ?? null,
      registrationClosesAt: moment(body.registrationClosesAt) ?? null,
      numbersHeldUntil: moment(body.numbersHeldUntil) ?? null,
      hotline: body.hotline !== undefined ? body.hotline : (source?.hotline ?? null),
      // The source's prices with the ones named changed; neither: the catalog's (null).
      prices: body.prices || source?.prices ? { ...pricesOf(source), ...body.prices } : null,
      copiedFrom: source?.id ?? null,
      updatedBy: actor.id,
    };
    assertInOrder(values);
    let row: EditionRow;
    try {
      [row] = (await tx.insert(editions).values(values).returning()) as [EditionRow];
    } catch (err) {
      if (isUniqueViolation(err, 'editions_name_lower_uq')) throw nameTaken(body.name);
      throw err;
    }
    await recordActivity(tx, {
      type: 'edition_updated',
      actorId: actor.id,
      actorName: actor.name,
      description: `${actor.name} created the edition ${row.name} (${row.year})`,
      details: source ? `Settings copied from ${source.name}` : null,
    });
    return row;
  });
}

const LABELS: Record<keyof UpdateEditionRequest, string> = {
  name: 'name',
  year: 'year',
  startsOn: 'start date',
  endsOn: 'end date',
  registrationOpensAt: 'registration opens',
  registrationClosesAt: 'registration closes',
  numbersHeldUntil: 'numbers held until',
  hotline: 'emergency hotline',
  prices: 'prices',
};

const shown = (v: unknown) =>
  v instanceof Date
    ? v.toISOString()
    : v === null || v === undefined
      ? '(none)'
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);

/** An edition's prices: its own, else the catalog's (DESIGN.md §9). */
export function pricesOf(row: Pick<EditionRow, 'prices'> | null | undefined): Prices {
  return { ...PRICES, ...(row?.prices ?? {}) };
}

/** Changes any of an edition's fields, past or current; audited with each change named. */
export async function updateEdition(
  db: Db,
  id: string,
  body: UpdateEditionRequest,
  actor: Actor,
  activity: { type: 'edition_updated' | 'event_settings_updated'; description: string } = {
    type: 'edition_updated',
    description: 'updated the edition',
  },
): Promise<EditionRow> {
  return db.transaction(async (tx) => {
    const before = await findEdition(tx, id);
    const set = {
      ...body,
      registrationOpensAt: moment(body.registrationOpensAt),
      registrationClosesAt: moment(body.registrationClosesAt),
      numbersHeldUntil: moment(body.numbersHeldUntil),
      prices: body.prices ? { ...pricesOf(before), ...body.prices } : undefined,
    };
    const defined = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined)) as Partial<EditionRow>;
    assertInOrder({ ...before, ...defined });
    let row: EditionRow;
    try {
      [row] = (await tx
        .update(editions)
        .set({ ...defined, updatedAt: new Date(), updatedBy: actor.id })
        .where(eq(editions.id, id))
        .returning()) as [EditionRow];
    } catch (err) {
      if (isUniqueViolation(err, 'editions_name_lower_uq')) throw nameTaken(body.name ?? before.name);
      throw err;
    }
    const changed = (Object.keys(LABELS) as Array<keyof UpdateEditionRequest>).filter(
      (k) => k in body && shown(before[k]) !== shown(row[k]),
    );
    await recordActivity(tx, {
      type: activity.type,
      actorId: actor.id,
      actorName: actor.name,
      description: `${actor.name} ${activity.description}${activity.type === 'edition_updated' ? ` ${row.name}` : ''}`,
      details: changed.length
        ? changed.map((k) => `${LABELS[k]}: ${shown(before[k])} → ${shown(row[k])}`).join('; ')
        : 'No change',
    });
    return row;
  });
}
