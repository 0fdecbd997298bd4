import {
  createInvitationAcceptance,
  createManagerTransfer,
  type InvitationAcceptanceFlow,
  type InvitationAcceptanceSnapshot,
  type ManagerTransferFlow,
  type ManagerTransferSnapshot,
} from '@portico/affiliate-sdk';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useMemo, useSyncExternalStore } from 'react';
import { useAccountClient } from '../context';
import { accountQueryKeys } from '../query-keys';
import { sessionChanged } from '../session/session-cache';
import { organisationQueryKeys as keys } from './organisation-keys';

/** Wraps a flow's steps so each, once it succeeded, runs `after` before the step resolves. */
function afterEach<F extends object>(flow: F, steps: (keyof F)[], after: () => Promise<unknown>): F {
  const wrapped = { ...flow };
  for (const name of steps) {
    const step = flow[name] as (...args: unknown[]) => Promise<unknown>;
    (wrapped as Record<keyof F, unknown>)[name] = async (...args: unknown[]) => {
      const value = await step(...args);
      await after();
      return value;
    };
  }
  return wrapped;
}

const refresh = (queryClient: QueryClient, queryKeys: readonly (readonly unknown[])[]) =>
  Promise.all(queryKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));

/**
 * The manager transfer of one organisation (`createManagerTransfer`), its state subscribed: proving
 * refreshes the members (the candidates), and each step that changes the transfer refreshes the pending
 * transfer, the members, the identities and the session (the manager may have changed). Step failures are in the snapshot's `error` (and reject).
 */
export function useManagerTransfer(sid: string): ManagerTransferFlow & { snapshot: ManagerTransferSnapshot } {
  const client = useAccountClient();
  const queryClient = useQueryClient();
  const flow = useMemo(() => {
    const transfer = createManagerTransfer(client, sid);
    // Proving opens the choice of the new manager: the members are read afresh (someone may have joined).
    const proved = afterEach(transfer, ['prove'], () => refresh(queryClient, [keys.members(sid)]));
    return afterEach(proved, ['start', 'accept', 'abandon'], () =>
      refresh(queryClient, [
        keys.transfer(sid),
        keys.members(sid),
        keys.identities,
        accountQueryKeys.session,
      ]),
    );
  }, [client, queryClient, sid]);
  const snapshot = useSyncExternalStore(flow.subscribe, flow.getSnapshot, flow.getSnapshot);
  return { ...flow, snapshot };
}

/**
 * Accepting an invitation by its ticket (`createInvitationAcceptance`), its state subscribed. Accepting
 * makes the new identity active (and may register and sign a person in): the session is asked again and
 * the previous account's cached data dropped.
 */
export function useInvitationAcceptance(
  ticket: string,
): InvitationAcceptanceFlow & { snapshot: InvitationAcceptanceSnapshot } {
  const client = useAccountClient();
  const queryClient = useQueryClient();
  const flow = useMemo(
    () =>
      afterEach(createInvitationAcceptance(client, ticket), ['accept'], () => sessionChanged(queryClient)),
    [client, queryClient, ticket],
  );
  const snapshot = useSyncExternalStore(flow.subscribe, flow.getSnapshot, flow.getSnapshot);
  return { ...flow, snapshot };
}
