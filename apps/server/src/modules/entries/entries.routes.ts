import { entryPayload, entrySchema } from '@rally/shared/contracts/auth';
import { uuidParam } from '@rally/shared/contracts/common';
import {
  createdEntryResponse,
  madeCurrentResponse,
  myEntriesResponse,
  nextEntryResponse,
} from '@rally/shared/contracts/editions';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import type { FileStore } from '../../lib/file-store';
import { acceptUpload, type PendingUpload } from '../../lib/files';
import { FILE_PARTS, readMultipart } from '../../lib/multipart';
import { parseBody, responses } from '../../lib/route-helpers';
import { presentEdition } from '../editions/editions.presenter';
import { myEntries } from './entries.service';
import { createEntry, nextEntry } from './join.service';
import { makeCurrent } from './rollover.service';

export async function entryRoutes(app: FastifyInstance, opts: { db: Db; config: Config; fileStore: FileStore }) {
  const { db, config, fileStore } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/my/entries', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['entries'],
      description: 'The signed-in rider’s entries, newest first, with verification and result.',
      response: responses({ 200: myEntriesResponse }),
    },
    handler: async (request) => ({
      success: true as const,
      data: await myEntries(db, requireAuth(request).userId, app.clock.now()),
    }),
  });

  r.get('/my/entries/next', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['entries'],
      description:
        'What the returning rider’s “Join <edition>” form starts from: the current edition and its window, whether they entered it, their last entry’s rider part and the number held for them.',
      response: responses({ 200: nextEntryResponse }),
    },
    handler: async (request) => ({
      success: true as const,
      data: await nextEntry(db, requireAuth(request).userId, app.clock.now()),
    }),
  });

  r.post('/my/entries', {
    config: {
      access: 'authenticated',
      // The upload routes' budget: each send re-encodes and stores a receipt.
      rateLimit: config.rateLimits.enabled
        ? { max: config.rateLimits.uploadsPerAddressPerHour, timeWindow: 3_600_000 }
        : false,
      multipart: { fields: entrySchema, files: { paymentReceipt: FILE_PARTS.paymentReceipt(false) } },
    },
    schema: {
      tags: ['entries'],
      consumes: ['multipart/form-data'],
      description:
        'A returning rider enters the current edition: the registration’s rider part as text parts and a new receipt (paymentReceipt: required unless paymentMethod is cash). 409: already entered (ENTRY_EXISTS), the number is taken (RIDER_NUMBER_TAKEN) or held for another rider (RIDER_NUMBER_HELD), or outside the window (REGISTRATION_CLOSED), or `consentVersion` (optional: the privacy notice version accepted, recorded with the entry) is not the current one (CONSENT_REQUIRED).',
      response: responses({ 201: createdEntryResponse }, 403, 409),
    },
    handler: async (request, reply) => {
      const userId = requireAuth(request).userId;
      const { fields, files } = await readMultipart(request);
      const input = parseBody(entryPayload(!!files.paymentReceipt), fields);
      // The cheap checks only: the receipt is stored as sent and processed off the request.
      const inspect = async (): Promise<PendingUpload[]> => {
        if (!files.paymentReceipt) return [];
        const accepted = await acceptUpload(
          'payment_receipt',
          files.paymentReceipt.buffer,
          files.paymentReceipt.filename,
        );
        return [async () => accepted];
      };
      const entry = await createEntry(db, userId, input, inspect, app.clock.now(), fileStore, app.messenger);
      return reply.code(201).send({
        success: true as const,
        data: { entry },
        message: 'Entry received! Staff will verify your payment.',
      });
    },
  });

  r.post('/admin/editions/:id/make-current', {
    config: { access: { permission: 'manage_event' } },
    schema: {
      tags: ['editions'],
      description:
        'Makes the edition current. The outgoing edition’s entries (numbers, codes, verifications, kits, stickers, scans, incidents, results) become its read-only history (`?edition=` on staff reads); riders join the new one afresh. 409: already current (EDITION_ALREADY_CURRENT) or a past edition (EDITION_PAST).',
      params: uuidParam,
      response: responses({ 200: madeCurrentResponse }, 404, 409),
    },
    handler: async (request) => {
      const now = app.clock.now();
      const { edition, archived } = await makeCurrent(db, request.params.id, actorOf(requireAuth(request)), now);
      return {
        success: true as const,
        data: { edition: presentEdition(edition, now), archived },
        message: `${edition.name} is now the current edition`,
      };
    },
  });
}
