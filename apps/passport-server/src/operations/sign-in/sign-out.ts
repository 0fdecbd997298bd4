import { Type } from 'typebox';
import { caller, defineOperation } from '../define';

/**
 * Ends the session the browser presented, with its `account.session_revoked` (reason `signed_out`), in
 * one transaction. Anyone may sign out: without a session nothing changes. The adapter clears the
 * browser's cookies after the commit (src/flows/sign-out.ts).
 */
export const signOut = defineOperation({
  name: 'account.sign_out',
  input: Type.Object({}),
  output: Type.Object({ signedOut: Type.Boolean() }),
  caller: caller.anonymous,
  emits: ['account.session_revoked'],
  async run(ctx) {
    const ended = await ctx.sessions.end();
    if (!ended) return { signedOut: false };
    ctx.emit({
      type: 'account.session_revoked',
      stream: `user:${ended.userId}`,
      actor: { kind: 'person', userId: ended.userId },
      targetUserId: ended.userId,
      data: { reason: 'signed_out' },
    });
    return { signedOut: true };
  },
});
