import { envelope } from '@rally/shared/contracts/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { responses } from '../../lib/route-helpers';

export async function systemRoutes(app: FastifyInstance, opts: { database: Database; config: Config }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/health', {
    config: { access: 'public' },
    schema: {
      tags: ['system'],
      response: responses({
        200: envelope(z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) })),
      }),
    },
    handler: async () => ({ success: true as const, data: { status: 'ok' as const, database: opts.database.kind } }),
  });

  // Payment instructions come from the operator's environment, so account details change without a release.
  r.get('/config/payment', {
    config: { access: 'public' },
    schema: {
      tags: ['system'],
      response: responses({
        200: envelope(
          z.object({
            gcash: z.object({ accountName: z.string(), accountNumber: z.string() }),
            bank_transfer: z.object({ accountName: z.string(), accountNumber: z.string(), bankName: z.string() }),
          }),
        ),
      }),
    },
    handler: async () => ({ success: true as const, data: opts.config.payment }),
  });
}
