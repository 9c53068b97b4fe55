// POST /api/sms/inbound: the organiser's phone (SMS Gateway for Android) forwards each text
// it receives here as its signed `sms:received` webhook (DESIGN.md §10). Public, and trusted
// only for a valid signature over the raw bytes, so this plugin reads JSON bodies as bytes
// (its own content-type parser, inside this encapsulated plugin only): the signature is
// checked on exactly what was sent, before anything is parsed.
import {
  type InboundSmsWebhook,
  inboundSmsAnswer,
  inboundSmsWebhook,
  otherSmsWebhook,
  smsWebhookBody,
} from '@rally/shared/contracts/messages';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { BadRequestError, UnauthorizedError } from '../../lib/errors';
import { responses } from '../../lib/route-helpers';
import { checkSignature, type SignatureProblem } from './inbound-text';
import { handleInboundText } from './sms-inbound.service';

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
        'A repeated webhook id answers 200 and changes nothing. Texts understood: `SOS <rider no.> <words>` from the rider’s registered phone, `<station code> <rider nos.>` from a marshal’s; anything else gets the help text back (when SMS is on).',
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
