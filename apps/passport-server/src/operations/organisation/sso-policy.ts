import { connectionOf } from '../../domain/enterprise/connections';
import { parseRoleRules, policyOf, type SsoPolicy, savePolicy } from '../../domain/enterprise/sso-sign-in';
import { rolesOfKeys } from '../../domain/organisations/invitations';
import { PassportError } from '../../errors';
import { SsoPolicyData, schemas } from '../../schemas/enterprise';
import { caller, defineOperation } from '../define';
import { emitInSubject } from './emit';

/**
 * An organisation's single sign-on policy (docs/enterprise-sso.md): whether its members whose e-mail
 * is in its verified domains must sign in to it through its connection, and the roles a first
 * sign-in's membership gets (a claim holding a value gives a role; the default role otherwise).
 */

const subject = (input: { subject_uid: string }) => input.subject_uid;

const policyView = (policy: SsoPolicy) => ({
  require_sso: policy.requireSso,
  default_role_key: policy.defaultRoleKey,
  role_rules: policy.roleRules,
  jit_provisioning: policy.jit,
});

export const saveSsoPolicy = defineOperation({
  name: 'organisation.sso_policy.save',
  input: schemas.policySave.body,
  output: SsoPolicyData,
  caller: caller.identity('sso:manage'),
  subject,
  emits: ['organisation.sso_policy.saved'],
  async run(ctx, input) {
    const subjectId = ctx.caller.subject.id;
    const policy: SsoPolicy = {
      requireSso: input.require_sso,
      defaultRoleKey: input.default_role_key || null,
      roleRules: parseRoleRules(input.role_rules),
      // Absent (a console or client that does not know the switch): the switch as it stands.
      jit: input.jit_provisioning ?? (await policyOf(ctx.tx, subjectId)).jit,
    };
    // Requiring single sign-on without a connection would shut the members out.
    if (policy.requireSso && !(await connectionOf(ctx.tx, subjectId)))
      throw new PassportError('connectionNotFound');
    const keys = new Set([
      ...(policy.defaultRoleKey ? [policy.defaultRoleKey] : []),
      ...policy.roleRules.map((rule) => rule.role_key),
    ]);
    const roles = await rolesOfKeys(ctx.tx, subjectId, [...keys]);
    if (roles.length !== keys.size) throw new PassportError('roleNotFound');
    await savePolicy(ctx.tx, subjectId, policy, ctx.now());
    emitInSubject(ctx, 'organisation.sso_policy.saved', {
      requireSso: policy.requireSso,
      defaultRoleKey: policy.defaultRoleKey,
      roleRules: policy.roleRules.map((rule) => ({
        claim: rule.claim,
        value: rule.value,
        roleKey: rule.role_key,
      })),
      ...(policy.jit ? {} : { jit: false }),
    });
    return policyView(policy);
  },
});

export const ssoPolicyInfo = defineOperation({
  name: 'organisation.sso_policy.info',
  input: schemas.policyInfo.querystring,
  output: SsoPolicyData,
  caller: caller.identity('sso:manage'),
  subject,
  emits: [],
  run: async (ctx) => policyView(await policyOf(ctx.tx, ctx.caller.subject.id)),
});
