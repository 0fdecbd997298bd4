import {
  createSubject,
  freezeSubject,
  listSubjects,
  subjectInfo,
  updateSubject,
} from '../../flows/organisation-subjects';
import { affiliatePaths as paths } from '../../protocol';
import { SubjectData, SubjectPage, schemas } from '../../schemas/organisations';
import { flowRoute } from '../declare';

/** Subjects (flows/organisation-subjects). */

export const createSubjectByUsername = flowRoute({
  method: 'POST',
  schema: schemas.createByUsername,
  data: SubjectData,
  at: [['aff', paths.subjectCreateByUsername]],
  run: (app, request) => {
    const { username, ...rest } = request.body;
    return createSubject(app, request, { identifier: { kind: 'username', value: username }, ...rest });
  },
});

export const createSubjectByMobile = flowRoute({
  method: 'POST',
  schema: schemas.createByMobile,
  data: SubjectData,
  at: [['aff', paths.subjectCreateByMobile]],
  run: (app, request) => {
    const { mobile, ...rest } = request.body;
    return createSubject(app, request, { identifier: { kind: 'mobile', value: mobile }, ...rest });
  },
});

export const createSubjectByEmail = flowRoute({
  method: 'POST',
  schema: schemas.createByEmail,
  data: SubjectData,
  at: [['aff', paths.subjectCreateByEmail]],
  run: (app, request) => {
    const { email, ...rest } = request.body;
    return createSubject(app, request, { identifier: { kind: 'email', value: email }, ...rest });
  },
});

export const subjectList = flowRoute({
  method: 'GET',
  schema: schemas.subjectList,
  data: SubjectPage,
  at: [['aff', paths.subjectList]],
  run: (app, request) => listSubjects(app, request, request.query),
});

export const subjectInfoRoute = flowRoute({
  method: 'GET',
  schema: schemas.subjectInfo,
  data: SubjectData,
  at: [['aff', paths.subjectInfo]],
  run: (app, request) => subjectInfo(app, request, request.query),
});

export const subjectUpdate = flowRoute({
  method: 'POST',
  schema: schemas.subjectUpdate,
  data: SubjectData,
  at: [['aff', paths.subjectUpdate]],
  run: (app, request) => updateSubject(app, request, request.body),
});

export const subjectFreeze = flowRoute({
  method: 'POST',
  schema: schemas.subjectFreeze,
  data: SubjectData,
  at: [['aff', paths.subjectFreeze]],
  run: (app, request) => freezeSubject(app, request, request.body),
});
