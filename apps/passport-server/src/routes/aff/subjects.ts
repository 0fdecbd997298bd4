import type { FastifyInstance } from 'fastify';
import { operationRoute } from '../../adapters/operation-route';
import type { User } from '../../db/schema';
import { emailOf, mobileOf } from '../../domain/accounts/targets';
import { currentPasswordIsRight } from '../../domain/passwords/failures';
import { PassportError } from '../../errors';
import { normaliseUsername } from '../../lib/identifiers';
import {
  type CreateIdentifier,
  createSubjectByEmail,
  createSubjectByMobile,
  createSubjectByUsername,
  freezeSubject,
  listSubjects,
  setSecondFactorRequired,
  subjectInfo,
  updateSubject,
} from '../../operations/organisation/subjects';
import { affiliatePaths as paths } from '../../protocol';
import { schemas } from '../../schemas/organisations';
import type { FlowRequest } from '../declare';

/** Subjects: the operations of src/operations/organisation/subjects.ts. */

type CreateSchema = (typeof schemas)['createByUsername' | 'createByMobile' | 'createByEmail'];

/**
 * What a create body proves besides the session: the identifier, when given, must name the signed-in
 * account itself (IDENTIFIER_MISMATCH; a body never says who the caller is), and the current password,
 * when given, is re-checked like password/update's — a wrong one counts against the client address and
 * the account, so a stolen session buys no free guesses.
 */
const creatorCheck =
  (kind: CreateIdentifier) =>
  async (app: FastifyInstance, request: FlowRequest<CreateSchema>, user: User): Promise<void> => {
    const body = request.body as { password?: string } & Partial<Record<CreateIdentifier, string>>;
    const value = body[kind];
    if (value !== undefined) {
      const normalised =
        kind === 'username'
          ? normaliseUsername(value)
          : kind === 'mobile'
            ? mobileOf(app, value)
            : emailOf(value);
      if (!normalised || normalised !== user[kind]) throw new PassportError('identifierMismatch');
    }
    if (
      body.password !== undefined &&
      !(await currentPasswordIsRight(app, request.ip, user.id, user.password_hash, body.password))
    )
      throw new PassportError('wrongCredentials');
  };

export const subjectCreateByUsername = operationRoute(createSubjectByUsername, {
  method: 'POST',
  schema: schemas.createByUsername,
  at: [['aff', paths.subjectCreateByUsername]],
  check: creatorCheck('username'),
});

export const subjectCreateByMobile = operationRoute(createSubjectByMobile, {
  method: 'POST',
  schema: schemas.createByMobile,
  at: [['aff', paths.subjectCreateByMobile]],
  check: creatorCheck('mobile'),
});

export const subjectCreateByEmail = operationRoute(createSubjectByEmail, {
  method: 'POST',
  schema: schemas.createByEmail,
  at: [['aff', paths.subjectCreateByEmail]],
  check: creatorCheck('email'),
});

export const subjectList = operationRoute(listSubjects, {
  method: 'GET',
  schema: schemas.subjectList,
  at: [['aff', paths.subjectList]],
});

export const subjectInfoRoute = operationRoute(subjectInfo, {
  method: 'GET',
  schema: schemas.subjectInfo,
  at: [['aff', paths.subjectInfo]],
});

export const subjectUpdate = operationRoute(updateSubject, {
  method: 'POST',
  schema: schemas.subjectUpdate,
  at: [['aff', paths.subjectUpdate]],
});

export const subjectSecondFactor = operationRoute(setSecondFactorRequired, {
  method: 'POST',
  schema: schemas.subjectSecondFactor,
  at: [['aff', paths.subjectSecondFactor]],
});

export const subjectFreeze = operationRoute(freezeSubject, {
  method: 'POST',
  schema: schemas.subjectFreeze,
  at: [['aff', paths.subjectFreeze]],
});
