import { accountInfo, cancelConfirm, cancelRequest } from '@portico/account-sdk';
import * as aff from '@portico/affiliate-sdk';
import { expect, it } from 'vitest';
import { OrganisationErrorCode, type OrganisationErrorName } from '../../src/protocol';
import { passCooldown } from '../support/flows';
import { rejection, rejectsWith, type SdkServer } from '../support/sdk-browser';
import { type Manager, manager, managersOf, member, type Person } from './organisation-helpers';

/**
 * The manager transfer's races, through the real SDK, on whatever storage the server runs: the sqlite
 * project runs them from test/sdk/manager-transfer.test.ts, the services project (PostgreSQL, where
 * the row locks matter) from test/smoke/manager-transfer.test.ts.
 */

/** The manager's ticket, by the code to their mobile. */
async function fromTicket(server: SdkServer, boss: Manager) {
  await passCooldown();
  await aff.sendOldManagerCode(boss.client, { subject_uid: boss.sid });
  const code = await server.codeFor(boss.mobile);
  return (await aff.verifyOldManager(boss.client, { subject_uid: boss.sid, code })).transfer_ticket;
}

/** A transfer from `boss` to `heir`, started, and the heir's ticket to accept it. */
async function pendingTo(server: SdkServer, boss: Manager, heir: Person & { identity: string }) {
  await aff.startManagerTransfer(boss.client, {
    subject_uid: boss.sid,
    transfer_ticket: await fromTicket(server, boss),
    user_identity_id: heir.identity,
  });
  // The start's code to the heir; another one in case the start's was held back by its cooldown.
  await passCooldown();
  await aff.sendNewManagerCode(heir.client, { subject_uid: boss.sid });
  const code = await server.codeFor(heir.mobile);
  return (await aff.verifyNewManager(heir.client, { subject_uid: boss.sid, code })).transfer_ticket;
}

/** A settled call as a promise again, for the assertions on rejections. */
const settled = (outcome: PromiseSettledResult<unknown>) =>
  outcome.status === 'fulfilled' ? Promise.resolve(outcome.value) : Promise.reject(outcome.reason);

/** Which of the calls settled fulfilled; the others must be the clear refusal named. */
async function oneWins(calls: Promise<unknown>[], loser: OrganisationErrorName): Promise<number> {
  const outcomes = await Promise.allSettled(calls);
  const winners = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
  expect(winners).toHaveLength(1);
  for (const o of outcomes)
    if (o.status === 'rejected') {
      const error = await rejection(settled(o));
      expect({ kind: error.kind, error_code: error.error_code }).toEqual({
        kind: 'response',
        error_code: OrganisationErrorCode[loser],
      });
    }
  return winners[0]!;
}

const transferEvents = (server: SdkServer, sid: string, type = 'organisation.manager.transferred') =>
  server.app.db
    .selectFrom('events')
    .select(['data', 'target_user_id', 'actor_user_id'])
    .where('subject_id', '=', sid)
    .where('type', '=', type)
    .execute();

export function transferRaces(serverOf: () => SdkServer): void {
  it('two people race for one transfer: the new manager accepts as the old one abandons; exactly one wins', async () => {
    const server = serverOf();
    for (let round = 0; round < 3; round += 1) {
      const boss = await manager(server);
      const heir = await member(server, boss, ['member:read']);
      const ticket = await pendingTo(server, boss, heir);
      const winner = await oneWins(
        [
          aff.transferManager(heir.client, { subject_uid: boss.sid, transfer_ticket: ticket }),
          aff.abandonManagerTransfer(boss.client, { subject_uid: boss.sid }),
        ],
        'transferNotFound',
      );
      const accepted = winner === 0;
      // One manager, the winner's; the event exactly when the hand-over committed.
      expect(await managersOf(server, boss.sid)).toEqual([accepted ? heir.userId : boss.userId]);
      const events = await transferEvents(server, boss.sid);
      expect(events).toHaveLength(accepted ? 1 : 0);
      if (accepted) {
        expect(events[0]).toMatchObject({ actor_user_id: heir.userId, target_user_id: boss.userId });
        expect(JSON.parse(String(events[0]!.data))).toEqual({ from: boss.identity, to: heir.identity });
      }
      // The start is in the log whoever won; the abandonment exactly when it committed.
      const started = await transferEvents(server, boss.sid, 'organisation.manager.transfer_started');
      expect(started).toHaveLength(1);
      expect(started[0]).toMatchObject({ actor_user_id: boss.userId, target_user_id: heir.userId });
      expect(JSON.parse(String(started[0]!.data))).toMatchObject({ from: boss.identity, to: heir.identity });
      const abandoned = await transferEvents(server, boss.sid, 'organisation.manager.transfer_abandoned');
      expect(abandoned).toHaveLength(accepted ? 0 : 1);
      if (!accepted)
        expect(abandoned[0]).toMatchObject({ actor_user_id: boss.userId, target_user_id: heir.userId });
      expect((await aff.pendingManagerTransfer(boss.client, { subject_uid: boss.sid })).transfer).toBeNull();
    }
  });

  it('two transfers of one subject at once: one is pending, the other refused', async () => {
    const server = serverOf();
    const boss = await manager(server);
    const heirs = [await member(server, boss, ['member:read']), await member(server, boss, ['member:read'])];
    const tickets = [await fromTicket(server, boss), await fromTicket(server, boss)];
    const winner = await oneWins(
      heirs.map((heir, i) =>
        aff.startManagerTransfer(boss.client, {
          subject_uid: boss.sid,
          transfer_ticket: tickets[i]!,
          user_identity_id: heir.identity,
        }),
      ),
      'transferPending',
    );
    const pending = await aff.pendingManagerTransfer(boss.client, { subject_uid: boss.sid });
    expect(pending.transfer?.to_identity_id).toBe(heirs[winner]!.identity);
  });

  it('the new manager’s cancellation racing the hand-over is blocked either way: the manager is never leaving', async () => {
    const server = serverOf();
    const boss = await manager(server);
    const heir = await member(server, boss, ['member:read']);
    // The heir proves it is them for a cancellation before being named: nothing blocked it then.
    await passCooldown();
    await cancelRequest(heir.client, { way: 'mobile', send: 1 });
    const { cancel_ticket } = await cancelRequest<{ cancel_ticket: string }>(heir.client, {
      way: 'mobile',
      code: await server.codeFor(heir.mobile),
    });
    const ticket = await pendingTo(server, boss, heir);
    const [handOver, cancel] = await Promise.allSettled([
      aff.transferManager(heir.client, { subject_uid: boss.sid, transfer_ticket: ticket }),
      cancelConfirm(heir.client, { cancel_ticket }),
    ]);
    // Whichever locks the heir's account first, the cancellation finds a blocker: the open transfer
    // (the hand-over not committed yet) or the organisation the heir manages now.
    expect(handOver.status).toBe('fulfilled');
    await rejectsWith(settled(cancel), 'cancelBlocked');
    expect(await managersOf(server, boss.sid)).toEqual([heir.userId]);
    expect((await accountInfo<{ cancel_erase_at?: number }>(heir.client)).cancel_erase_at).toBeUndefined();
  });
}
