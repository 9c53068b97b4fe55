// The rider number as the API reads it (a path parameter, a form field, a JSON body): the
// range and message of ../rider-number.ts.
import { z } from 'zod';
import { RIDER_NUMBER_MAX, RIDER_NUMBER_MESSAGE, RIDER_NUMBER_MIN } from '../catalog/rider-number';

/** A rider number as a form or a path sends it (text or number); anything else answers the one message. */
export const riderNumberSchema = z.coerce
  .number({ message: RIDER_NUMBER_MESSAGE })
  .int({ message: RIDER_NUMBER_MESSAGE })
  .min(RIDER_NUMBER_MIN, { message: RIDER_NUMBER_MESSAGE })
  .max(RIDER_NUMBER_MAX, { message: RIDER_NUMBER_MESSAGE });
