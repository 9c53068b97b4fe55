// POST /api/sms/inbound: the organiser's phone (SMS Gateway for Android) forwards each text
// it receives here as its signed `sms:received` webhook (DESIGN.md §10). Public, and trusted
// only for a valid signature over the raw bytes, so that route's own plugin reads JSON bodies
// as bytes (its own content-type parser, encapsulated): the signature is checked on exactly
// what was sent, before anything is parsed.
// PUT /api/my/sms-pin: a qr_scan holder's SMS PIN, which a text of scans must end with.
import {
  type InboundSmsWebhook,
  inboundSmsAnswer,
  inboundSmsWebhook,
  otherSmsWebhook,
  smsPinRequest,
  smsWebhookBody,
} from '@rally/shared/contracts/messages';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import { BadRequestError, UnauthorizedError } from '../../lib/errors';
import { responses } from '../../lib/route-helpers';
import { checkSignature, type SignatureProblem } from './inbound-text';
import { handleInboundText } from './sms-inbound.service';
import { setSmsPin } from './sms-pin.service';

const SIGNATURE_ERRORS: Record<SignatureProblem, string> = {
  missing: 'X-Signature and X-Timestamp are required (the SMS gateway’s webhook signing key)',
  mismatch: 'X-Signature does not match the body: check SMS_WEBHOOK_KEY against the phone’s signing key',
  stale: 'X-Timestamp is more than 5 minutes from the server’s clock: check the phone’s time',
};

const IGNORED = { outcome: 'ignored', repeat: false, replied: false } as const;

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Any signed webhook names its event and id; other events (`sms:sent`, `system:ping`) hold other payloads. */
const webhookEvent = otherSmsWebhook.pick({ event: true, id: true });

function fail(error: z.ZodError): never {
  const issue = error.issues[0];
  const field = issue?.path.map(String).join('.') || 'body';
  const said = issue?.message ?? '';
  const message =
    !said || /^Invalid input/.test(said) ? `${field} is invalid` : said.startsWith(field) ? said : `${field}: ${said}`;
  throw new BadRequestError(message, 'VALIDATION');
}

/** The webhook's fields (null: an event other than a received text), or a 400 naming the first problem. */
function readWebhook(raw: Buffer): InboundSmsWebhook | null {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new BadRequestError('The body must be the SMS gateway’s JSON webhook', 'VALIDATION');
  }
  const event = webhookEvent.safeParse(body);
  if (!event.success) fail(event.error);
  if (event.data.event !== 'sms:received') return null;
  const parsed = inboundSmsWebhook.safeParse(body);
  if (!parsed.success) fail(parsed.error);
  return parsed.data;
}

export async function smsInboundRoutes(app: FastifyInstance, opts: { db: Db; config: Config }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.put('/my/sms-pin', {
    config: { access: { permission: 'qr_scan' } },
    schema: {
      tags: ['messages'],
      description:
        'Sets the caller’s SMS PIN (4 to 8 digits; qr_scan holders): a text of scans from their phone counts only when it ends with `PIN <pin>`, else its scans are kept flagged for review (`sms_unverified`). Stored hashed and shown nowhere; a new PIN replaces the old. 204.',
      body: smsPinRequest,
      response: responses({ 204: z.null().describe('The PIN is set') }),
    },
    handler: async (request, reply) => {
      await setSmsPin(opts.db, requireAuth(request).userId, request.body);
      return reply.code(204).send(null);
    },
  });
  // The webhook reads its body as bytes: in a plugin of its own, so the PIN's JSON is parsed.
  await app.register(webhookRoutes, opts);
}

async function webhookRoutes(app: FastifyInstance, opts: { db: Db; config: Config }) {
  const { db, config } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // The bytes as sent (the app-wide parser would parse them, and its control-character check
  // would refuse a text with a line break before the route could clean it).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, body, done) =>
    done(null, body),
  );

  r.post('/sms/inbound', {
    config: { access: 'public' },
    // The body is read after the signature check (readWebhook); the schema is the document's.
    validatorCompiler: () => (value) => ({ value }),
    schema: {
      tags: ['messages'],
      description:
        'SMS Gateway for Android’s `sms:received` webhook. Signed: `X-Timestamp` (Unix seconds, within 5 minutes) and `X-Signature`, the hex HMAC-SHA256 of the raw body followed by the timestamp, keyed with SMS_WEBHOOK_KEY; 401 otherwise, or while SMS_WEBHOOK_KEY is unset. ' +
        'A repeated webhook id answers 200 and changes nothing. Texts understood: `SOS <rider no.> <words>` from the rider’s registered phone (opened as an incident of source `sms`, `senderVerified: false`), `<station code> <rider nos.> PIN <pin>` from a qr_scan holder’s (without their SMS PIN, or with a wrong one, the scans are kept flagged `sms_unverified`; five wrong PINs in an hour hold all the number’s texts till the hour ends); anything else gets the help text back (when SMS is on), at most 3 such replies a number a day, none abroad to a number of no account, none to a text that looks automated.',
      body: smsWebhookBody,
      response: responses({ 200: inboundSmsAnswer }, 401),
    },
    handler: async (request) => {
      const key = config.messages.smsWebhookKey;
      if (!key) throw new UnauthorizedError('SMS in is off: set SMS_WEBHOOK_KEY to take texts', 'SMS_IN_OFF');
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const problem = checkSignature(
        raw,
        header(request.headers['x-timestamp']),
        header(request.headers['x-signature']),
        key,
        app.clock.now(),
      );
      if (problem) throw new UnauthorizedError(SIGNATURE_ERRORS[problem], 'SMS_SIGNATURE');
      const hook = readWebhook(raw);
      // Only received texts are read; the phone's other events are taken and left alone.
      if (!hook) return { success: true as const, message: 'Not a received text: ignored', data: IGNORED };
      const result = await handleInboundText(db, hook, { messenger: app.messenger, now: app.clock.now() });
      return {
        success: true as const,
        message: result.repeat ? 'Already handled' : `Handled as ${result.outcome}`,
        data: result,
      };
    },
  });
}
