import {
  rolesQueryOptions,
  SubmitButton,
  ssoPolicyQueryOptions,
  useAccountClient,
  useSaveSsoPolicy,
} from '@portico/account-react';
import type { SsoRoleRule } from '@portico/affiliate-sdk';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Button } from '../ui/button';
import { Switch } from '../ui/switch';
import type { SectionProps } from './console-context';
import { Card, Choice, clearingFirst, clearOutcome, Field, Problem } from './parts';
import { usePolicyT } from './sso-policy.messages';

/** The server takes at most this many role rules. */
const RULES_MAX = 20;

/**
 * The organisation's single sign-on policy (`sso:manage`): requiring single sign-on, whether a first
 * sign-in makes the membership (just in time), the role such a membership gets when no rule matches,
 * and the role rules (a claim holding a value gives a role). Everything is edited here and sent
 * together; deleting a rule or flipping the switch takes effect only when saved.
 */
export function SsoPolicy({ org, can }: SectionProps) {
  const t = usePolicyT();
  const client = useAccountClient();
  const sid = org.sec_subject_uid;
  const policy = useQuery(ssoPolicyQueryOptions(client, sid));
  const roles = useQuery({ ...rolesQueryOptions(client, sid), enabled: can('role:read') });
  const save = useSaveSsoPolicy(sid);
  const [requireSso, setRequireSso] = useState(false);
  const [jit, setJit] = useState(true);
  const [defaultRole, setDefaultRole] = useState('');
  const [rules, setRules] = useState<SsoRoleRule[]>([]);
  const [incomplete, setIncomplete] = useState(false);
  useEffect(() => {
    if (!policy.data) return;
    setRequireSso(policy.data.require_sso);
    setJit(policy.data.jit_provisioning !== false);
    setDefaultRole(policy.data.default_role_key ?? '');
    setRules(policy.data.role_rules);
  }, [policy.data]);
  const edit = clearingFirst(() => {
    clearOutcome(save);
    setIncomplete(false);
  });
  const setRule = (i: number, change: Partial<SsoRoleRule>) =>
    edit(setRules)(rules.map((rule, j) => (j === i ? { ...rule, ...change } : rule)));
  const roleOptions = (roles.data?.items ?? []).map((r): [string, string] => [r.role_key, r.role_name]);
  const hint = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    clearOutcome(save);
    const trimmed = rules.map((r) => ({
      claim: r.claim.trim(),
      value: r.value.trim(),
      role_key: r.role_key,
    }));
    if (trimmed.some((r) => !r.claim || !r.value || !r.role_key)) return setIncomplete(true);
    save.mutate({
      require_sso: requireSso,
      jit_provisioning: jit,
      default_role_key: defaultRole,
      role_rules: trimmed,
    });
  }
  return (
    <Card id="org-sso-policy" title={t('pol.title')}>
      <p>{t('pol.intro')}</p>
      <form className="form" noValidate onSubmit={submit} aria-label={t('pol.title')}>
        <label>
          <input
            type="checkbox"
            checked={requireSso}
            aria-describedby={hint}
            onChange={(e) => edit(setRequireSso)(e.target.checked)}
          />{' '}
          {t('pol.require')}
        </label>
        <p id={hint} className="muted">
          {t('pol.requireHint')}
        </p>
        <Switch
          label={t('pol.jit')}
          hint={jit ? t('pol.jitOn') : t('pol.jitOff')}
          checked={jit}
          onCheckedChange={edit(setJit)}
        />
        <Choice
          label={t('pol.defaultRole')}
          value={defaultRole}
          onChange={edit(setDefaultRole)}
          options={roleOptions}
          placeholder={t('pol.noRole')}
        />
        <fieldset>
          <legend>{t('pol.rules')}</legend>
          <p className="muted">{t('pol.rulesHint')}</p>
          {rules.map((rule, i) => {
            const n = i + 1;
            return (
              <fieldset key={i} className="org-sso-rule">
                <legend>{t('pol.rule', { n })}</legend>
                <Field
                  label={t('pol.claim')}
                  value={rule.claim}
                  onChange={(claim) => setRule(i, { claim })}
                />
                <Field
                  label={t('pol.value')}
                  value={rule.value}
                  onChange={(value) => setRule(i, { value })}
                />
                <Choice
                  label={t('pol.role')}
                  value={rule.role_key}
                  onChange={(role_key) => setRule(i, { role_key })}
                  options={roleOptions}
                  placeholder={t('pol.chooseRole')}
                />
                <Button variant="secondary" onClick={() => edit(setRules)(rules.filter((_, j) => j !== i))}>
                  {t('pol.removeRule', { n })}
                </Button>
              </fieldset>
            );
          })}
          {rules.length < RULES_MAX ? (
            <Button
              variant="secondary"
              onClick={() => edit(setRules)([...rules, { claim: 'groups', value: '', role_key: '' }])}
            >
              {t('pol.addRule')}
            </Button>
          ) : null}
        </fieldset>
        {incomplete ? (
          <p role="alert" className="portico-error">
            {t('pol.incomplete')}
          </p>
        ) : null}
        <Problem error={save.error ?? policy.error} />
        <p role="status" className="success">
          {save.isSuccess ? t('pol.saved') : ''}
        </p>
        <SubmitButton pending={save.isPending}>{t('pol.save')}</SubmitButton>
      </form>
    </Card>
  );
}
