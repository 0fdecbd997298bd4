import { Type } from 'typebox';
import { CommonQuery } from './common';

const Target = (description: string) => Type.Optional(Type.String({ maxLength: 2048, description }));

export const wapLoginSchema = {
  summary: 'The app flavour’s sign-in (phone layout) for a wap login; back to a safe next',
  tags: ['app'],
  querystring: Type.Object(
    { ...CommonQuery.properties, next: Target('where to come back to; same-origin or allow-listed only') },
    { additionalProperties: true },
  ),
};

export const loginSuccessSchema = {
  summary:
    'The wap login’s login-success step: the app’s page for service, or service itself with hand_back=1',
  tags: ['app'],
  querystring: Type.Object(
    {
      ...CommonQuery.properties,
      service: Target('the caller to hand back to; same-origin or allow-listed only'),
      hand_back: Type.Optional(Type.String({ maxLength: 2, description: '1: redirect to service now' })),
    },
    { additionalProperties: true },
  ),
};
