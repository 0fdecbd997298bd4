import {
  type AccountError,
  checkMobileCode,
  isAccountError,
  registerByMobile,
  sendMobileCode,
  uploadPic,
} from '@portico/account-sdk';
import * as aff from '@portico/affiliate-sdk';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CodeType, ErrorCode, OrganisationErrorCode } from '../../src/protocol';
import { type Manager, manager, member, person } from '../sdk/organisation-helpers';
import { passCooldown } from '../support/flows';
import { freshMobile } from '../support/server';
import { SCENARIO_TIMEOUT_MS, scenarioServer } from './harness';

/**
 * People racing for one thing at once, through the real SDKs on a real port: exactly one wins, the
 * others get a clear refusal (a failure envelope, never a 500 or a hang), and nothing is left half done.
 */

const PIC_QUOTA = 3;
const server = scenarioServer(
  { profileQuotas: { 'profile.pic': { times: PIC_QUOTA, windowSeconds: 86_400 } } },
  { limits: { sendCooldownMs: 5 } },
);

/** The winners and the refusals of calls made at once; a refusal that is not an AccountError throws. */
async function race<T>(calls: Promise<T>[]) {
  const settled = await Promise.allSettled(calls);
  const won = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const refused = settled.flatMap((s) => {
    if (s.status === 'fulfilled') return [];
    if (!isAccountError(s.reason)) throw s.reason;
    return [s.reason as AccountError];
  });
  return { won, refused };
}

/** A clear refusal: the server answered with a failure envelope (not a 5xx, not a dropped request). */
function expectClearRefusal(error: AccountError, code: number) {
  expect({ kind: error.kind, error_code: error.error_code }, error.message).toEqual({
    kind: 'response',
    error_code: code,
  });
  expect(error.status).toBeLessThan(500);
}

/** A ticket proving the manager's own number, for starting a transfer. */
async function oldManagerTicket(boss: Manager) {
  await passCooldown();
  await aff.sendOldManagerCode(boss.client, { subject_uid: boss.sid });
  const { transfer_ticket } = await aff.verifyOldManager(boss.client, {
    subject_uid: boss.sid,
    code: await server().codeFor(boss.mobile),
  });
  return transfer_ticket;
}

describe('races', () => {
  it(
    'two people accept one invitation link at once: exactly one joins',
    async () => {
      const [boss, ada, bob] = await Promise.all([
        manager(server(), 'Race Ltd'),
        person(server()),
        person(server()),
      ]);
      const link = await aff.inviteByLink(boss.client, { subject_uid: boss.sid, deputy_name: 'Racer' });
      const { won, refused } = await race(
        [ada, bob].map((p) => aff.acceptInvitation(p.client, { invite_ticket: link.invite_ticket })),
      );
      expect(won).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expectClearRefusal(refused[0]!, OrganisationErrorCode.invitationUsed);
      const members = await aff.listDeputies(boss.client, { sec_subject_uid: boss.sid });
      expect(members.total).toBe(2);
      expect(members.items.map((d) => d.sec_user_id)).toContain(won[0]!.user_id);
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    `20 pictures uploaded at once against a quota of ${PIC_QUOTA}: exactly ${PIC_QUOTA} stored`,
    async () => {
      const { client, userId } = await person(server());
      const bytes = new Uint8Array(
        await sharp({ create: { width: 32, height: 24, channels: 3, background: '#3366cc' } })
          .png()
          .toBuffer(),
      );
      const { won, refused } = await race(
        Array.from({ length: 20 }, () =>
          uploadPic<{ key: string }>(client, { pic: new Blob([bytes], { type: 'image/png' }) }),
        ),
      );
      expect(won).toHaveLength(PIC_QUOTA);
      for (const error of refused) expectClearRefusal(error, ErrorCode.updateLimitReached);
      const stored = await server()
        .app.db.selectFrom('images')
        .select('key')
        .where('owner_id', '=', userId)
        .where('kind', '=', 'pic')
        .execute();
      expect(stored.map((row) => row.key).sort()).toEqual(won.map((pic) => pic.key).sort());
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    'two browsers register one mobile at once, each with its own ticket: one account, the other ACCOUNT_EXISTS',
    async () => {
      const mobile = freshMobile();
      const browsers = [server().sdkBrowser().client(), server().sdkBrowser().client()];
      const tickets: string[] = [];
      for (const client of browsers) {
        await passCooldown();
        await sendMobileCode(client, { mobile, type: CodeType.register });
        const code = await server().codeFor(mobile);
        tickets.push(
          (await checkMobileCode(client, { mobile, code, type: CodeType.register })).verify_ticket,
        );
      }
      // The account is stored in the registration's transaction: the loser's insert meets the winner's
      // row (a unique violation that aborts it on PostgreSQL) and nothing of it is left.
      const { won, refused } = await race(
        browsers.map((client, i) => registerByMobile(client, { mobile, verify_ticket: tickets[i]! })),
      );
      expect(won).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expectClearRefusal(refused[0]!, ErrorCode.accountExists);
      const accounts = await server()
        .app.db.selectFrom('users')
        .select('id')
        .where('mobile', '=', mobile)
        .execute();
      expect(accounts.map((row) => row.id)).toEqual([won[0]!.user_id]);
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    'a manager starts two transfers of one subject at once: exactly one is started, and it completes',
    async () => {
      const boss = await manager(server(), 'Transfer Race Ltd');
      const heirs = await Promise.all([member(server(), boss, ['member:read']), member(server(), boss, [])]);
      const tickets = [await oldManagerTicket(boss), await oldManagerTicket(boss)];
      const { won, refused } = await race(
        heirs.map((heir, i) =>
          aff.startManagerTransfer(boss.client, {
            subject_uid: boss.sid,
            transfer_ticket: tickets[i]!,
            user_identity_id: heir.identity,
          }),
        ),
      );
      expect(won).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expectClearRefusal(refused[0]!, OrganisationErrorCode.transferPending);

      const heir = heirs.find((h) => h.identity === won[0]!.to_identity_id)!;
      await passCooldown();
      await aff.sendNewManagerCode(heir.client, { subject_uid: boss.sid });
      const { transfer_ticket } = await aff.verifyNewManager(heir.client, {
        subject_uid: boss.sid,
        code: await server().codeFor(heir.mobile),
      });
      await aff.transferManager(heir.client, { subject_uid: boss.sid, transfer_ticket });
      const managers = await Promise.all(
        [boss, ...heirs].map(
          async (p) => (await aff.userPermissions(p.client, { subject_uid: boss.sid })).is_manager,
        ),
      );
      expect(managers).toEqual([boss, ...heirs].map((p) => p === heir));
    },
    SCENARIO_TIMEOUT_MS,
  );
});
