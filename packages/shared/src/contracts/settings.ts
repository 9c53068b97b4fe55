// Event-wide settings (issue 18: Settings): the event's name and dates and
// the emergency hotline a rider's SOS falls back to. Read by anyone (the hotline is meant
// to be public), changed with manage_event.
import { z } from 'zod';
import { EVENT_NAME_MAX, HOTLINE_MAX } from '../catalog/event-day';
import { envelope } from './common';
import { plainText } from './stations';

/** A calendar date as text (YYYY-MM-DD) that exists. */
export const dateText = (field: string) =>
  z
    .string({ message: `${field} must be a date (YYYY-MM-DD)` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: `${field} must be a date (YYYY-MM-DD)` })
    .refine(
      (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
      {
        message: `${field} must be a real date`,
      },
    );

/** A number a phone can dial: digits, an optional leading +, spaces and dashes between. */
export const hotlineText = z
  .string({ message: 'hotline must be text' })
  .trim()
  .max(HOTLINE_MAX, { message: `hotline must be at most ${HOTLINE_MAX} characters` })
  .regex(/^\+?[0-9][0-9 -]{2,}[0-9]$/, { message: 'hotline must be a phone number (digits, +, spaces, dashes)' });

export const eventSettings = z.object({
  name: z.string(),
  startsOn: z.string().nullable(),
  endsOn: z.string().nullable(),
  hotline: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type EventSettings = z.infer<typeof eventSettings>;
export const eventSettingsResponse = envelope(eventSettings);

export const updateEventSettingsRequest = z
  .object({
    name: plainText('name', EVENT_NAME_MAX),
    startsOn: dateText('startsOn').nullable(),
    endsOn: dateText('endsOn').nullable(),
    hotline: hotlineText.nullable(),
  })
  .refine((v) => !v.startsOn || !v.endsOn || v.endsOn >= v.startsOn, {
    message: 'endsOn must not be before startsOn',
    path: ['endsOn'],
  });
export type UpdateEventSettingsRequest = z.infer<typeof updateEventSettingsRequest>;
