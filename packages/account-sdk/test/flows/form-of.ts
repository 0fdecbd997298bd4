import { decodeMixedFields } from '../../src/protocol';
import type { SeenRequest } from '../support/passport-server';

/** The form fields of a request as the passport reads them (sensitive fields un-mixed). */
export const formOf = (request: SeenRequest): Record<string, string> =>
  decodeMixedFields(Object.fromEntries(request.form));
