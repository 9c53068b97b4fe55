// Consent on record (DESIGN.md §12): the published privacy notice and terms (public), their
// publication by the organiser, and the rider's own consents: the notice accepted and the
// optional purposes, given or withdrawn with effect at once.
import {
  acceptNoticeRequest,
  consentPurposeParam,
  myConsentsResponse,
  privacyNoticeQuery,
  privacyNoticeResponse,
  putConsentRequest,
  putPrivacyNoticeRequest,
} from '@rally/shared/contracts/privacy';
import { controlCharacterProblem } from '@rally/shared/contracts/text';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { CONTROL_CHARACTERS_CODE } from '../../lib/control-characters';
import { BadRequestError } from '../../lib/errors';
import { responses } from '../../lib/route-helpers';
import { acceptNotice, myConsents, setConsent } from './my-consents.service';
import { currentNotice, noticeOfVersion, publishNotice, textOrigins } from './notice.service';
import { presentNotice } from './privacy.presenter';

export async function privacyRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Version 1 is there before the first request (made lazily too, should this fail): a
  // request that is refused never leaves a row behind.
  app.addHook('onReady', async () => {
    try {
      await currentNotice(db);
    } catch (err) {
      app.log.warn({ err }, 'the privacy notice could not be made at start-up; it is made on first need');
    }
  });

  const noticeAnswer = async (version?: number) => {
    const row = version === undefined ? await currentNotice(db) : await noticeOfVersion(db, version);
    return presentNotice(row, await textOrigins(db, row));
  };

  r.get('/privacy/notice', {
    config: { access: 'public' },
    schema: {
      tags: ['privacy'],
      description:
        'The privacy notice and the terms (Markdown) as published: `version` is what a registration, “Join” or sign-in accepts as `consentVersion`; `privacy` and `terms` each carry the version and date of the publication that last changed that text. `?version=N` reads an earlier version (404 for one never published).',
      querystring: privacyNoticeQuery,
      response: responses({ 200: privacyNoticeResponse }, 404),
    },
    handler: async (request) => ({ success: true as const, data: await noticeAnswer(request.query.version) }),
  });

  r.put('/admin/privacy/notice', {
    // The texts are Markdown: line breaks and tabs are theirs, other control characters are not.
    config: { access: { permission: 'manage_event' }, textCheckPerItem: ['privacyText', 'termsText'] },
    preValidation: async (request) => {
      const body = request.body as Record<string, unknown> | null;
      for (const field of ['privacyText', 'termsText'] as const) {
        const value = body?.[field];
        const problem = typeof value === 'string' ? controlCharacterProblem(field, value, true) : null;
        if (problem) throw new BadRequestError(problem, CONTROL_CHARACTERS_CODE);
      }
    },
    schema: {
      tags: ['privacy'],
      description:
        'Publishes the privacy notice and the terms together as the next version; every rider is asked to accept it at their next sign-in. 409 NOTICE_UNCHANGED when both texts are those of the current version.',
      body: putPrivacyNoticeRequest,
      response: responses({ 200: privacyNoticeResponse }, 409),
    },
    handler: async (request) => {
      const row = await publishNotice(db, request.body, actorOf(requireAuth(request)));
      return {
        success: true as const,
        message: `Version ${row.version} of the privacy notice and terms is published`,
        data: presentNotice(row, await textOrigins(db, row)),
      };
    },
  });

  r.get('/my/consents', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['privacy'],
      description:
        'The caller’s consents: the notice version accepted (and whether a newer one must be accepted: `needed`), each optional purpose as in effect now (their choice, else the rally’s default), and every consent given or withdrawn, newest first.',
      response: responses({ 200: myConsentsResponse }),
    },
    handler: async (request) => ({ success: true as const, data: await myConsents(db, requireAuth(request).userId) }),
  });

  r.put('/my/consents/notice', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['privacy'],
      description:
        'Accepts the current privacy notice and terms (the re-ask after a new version). 409 CONSENT_REQUIRED, naming the current version, when `version` is not it.',
      body: acceptNoticeRequest,
      response: responses({ 200: myConsentsResponse }, 409),
    },
    handler: async (request) => ({
      success: true as const,
      message: 'Thank you: your acceptance is on record',
      data: await acceptNotice(db, requireAuth(request).userId, request.body.version),
    }),
  });

  r.put('/my/consents/:purpose', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['privacy'],
      description:
        'Gives or withdraws an optional purpose (`public_profile`, `followers`, `tracking`, `public_photo`), effective at once. `tracking` turns the caller’s tracker on or off as PUT /api/my/tracking does: giving it needs a verified entry (403) and `version` = the tracking consent’s current version (409 CONSENT_REQUIRED).',
      params: consentPurposeParam,
      body: putConsentRequest,
      response: responses({ 200: myConsentsResponse }, 403, 409),
    },
    handler: async (request) => {
      const { purpose } = request.params;
      const data = await setConsent(db, requireAuth(request), purpose, request.body, app.clock.now());
      return {
        success: true as const,
        message: request.body.given ? 'Consent given' : 'Consent withdrawn: in effect now',
        data,
      };
    },
  });
}
