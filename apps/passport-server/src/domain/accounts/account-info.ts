import { mask } from '../../lib/identifiers';
import type { AccountInfo } from '../../protocol';
import { imageUrl } from '../profile/images';
import type { Session } from '../sessions/sessions';

/**
 * The account as the client sees it: identifiers masked, no hash, no internal flags. `plaintext` (the
 * spec's need_plaintext, asked by account/info only) answers the person's own mobile and e-mail whole:
 * their own data to their own session, as the data export gives it.
 */
export function accountInfo(
  session: Session,
  extra: { newUser?: boolean; plaintext?: boolean } = {},
): AccountInfo {
  const { user } = session;
  const shown = extra.plaintext ? (value: string) => value : mask;
  return {
    user_id: user.id,
    sec_user_id: user.id,
    screen_name: user.screen_name,
    name: user.screen_name,
    avatar_url: user.avatar_key ? imageUrl(user.avatar_key) : '',
    mobile: user.mobile ? shown(user.mobile) : '',
    email: user.email ? shown(user.email) : '',
    username: user.username ?? '',
    has_password: user.password_hash !== null,
    is_frozen: Number(user.is_frozen),
    ...(extra.newUser === undefined ? {} : { new_user: extra.newUser }),
    ...(user.cancel_erase_at == null ? {} : { cancel_erase_at: Number(user.cancel_erase_at) }),
    session: { created_at: session.createdAt, expires_at: session.expiresAt },
  };
}
