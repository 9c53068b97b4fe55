// Payment statements (DESIGN.md §13): the organiser uploads the GCash or bank history; the
// desk sees which rows matched a receipt and which matched none.
import { MAX_UPLOAD_BYTES } from '@rally/shared/catalog/registration';
import { uuidParam } from '@rally/shared/contracts/common';
import { statementListResponse, statementResponse, statementUploadFields } from '@rally/shared/contracts/receipts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { BadRequestError } from '../../lib/errors';
import { type FilePartRule, readMultipart } from '../../lib/multipart';
import { parseBody, responses } from '../../lib/route-helpers';
import { listStatements, statementDetail, uploadStatement } from './payment-statements.service';

const access = { permission: 'verify_users' } as const;
const tags = ['admin: payment statements'];

// Browsers name a CSV's type variously (Excel's own, plain text, none): the server reads the bytes.
const statementPart: FilePartRule = {
  mediaTypes: ['text/csv', 'application/vnd.ms-excel', 'text/plain', 'application/pdf', 'application/octet-stream'],
  maxBytes: MAX_UPLOAD_BYTES,
  required: true,
  description:
    'The transaction history: a CSV export (UTF-8, with or without a BOM; `,` or `;`; quoted fields) or a PDF statement with a text layer.',
};

export async function paymentStatementRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/admin/payment-statements', {
    config: { access, multipart: { fields: statementUploadFields, files: { file: statementPart } } },
    schema: {
      tags,
      consumes: ['multipart/form-data'],
      description:
        "Uploads a GCash or bank transaction history for the current edition: `preset` 'gcash' (columns Date and Time, Description, Reference No., Debit, Credit, Balance), 'bank' (Transaction Date, Description, Reference Number, Amount or Debit/Credit) or 'custom' with `mapping` (JSON naming the referenceNumber, amount and paidAt columns). The rows money came in on are stored and matched to the edition's receipts by reference and amount. A file that cannot be read is refused with 400 and the reason; nothing is stored.",
      response: responses({ 201: statementResponse }),
    },
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      const { fields, files } = await readMultipart(request);
      const body = parseBody(statementUploadFields, fields);
      const part = files.file;
      if (!part) throw new BadRequestError('No statement file was sent in the file field', 'NO_FILE');
      const data = await uploadStatement(db, actorOf(auth), { ...body, file: part });
      reply.code(201);
      return {
        success: true as const,
        message: `Statement read: ${data.rowCount} payments, ${data.matchedCount} matched to receipts`,
        data,
      };
    },
  });

  r.get('/admin/payment-statements', {
    config: { access },
    schema: { tags, response: responses({ 200: statementListResponse }) },
    handler: async (request) => ({ success: true as const, data: await listStatements(db, request.edition) }),
  });

  r.get('/admin/payment-statements/:id', {
    config: { access },
    schema: {
      tags,
      description: "The statement's rows: those matched to a receipt (with its rider) and those matching none.",
      params: uuidParam,
      response: responses({ 200: statementResponse }, 404),
    },
    handler: async (request) => ({
      success: true as const,
      data: await statementDetail(db, request.params.id, request.edition),
    }),
  });
}
