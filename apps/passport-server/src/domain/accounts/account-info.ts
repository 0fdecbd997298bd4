import { mask } from '../../lib/identifiers';
import type { AccountInfo } from '../../protocol';
import { imageUrl } from '../profile/images';
import type { Session } from '../sessions/sessions';

/** The account as the client sees it: identifiers masked, no hash, no internal flags. */
export function accountInfo(session: Session, extra: { newUser?: boolean } = {}): AccountInfo {
  const { user } = session;
  return {
    user_id: user.id,
    sec_user_id: user.id,
    screen_name: user.screen_name,
    name: user.screen_name,
    avatar_url: user.avatar_key ? imageUrl(user.avatar_key) : '',
    mobile: user.mobile ? mask(user.mobile) : '',
    email: user.email ? mask(user.email) : '',
    username: user.username ?? '',
    has_password: user.password_hash !== null,
    is_frozen: Number(user.is_frozen),
    ...(extra.newUser === undefined ? {} : { new_user: extra.newUser }),
    ...(user.cancel_erase_at == null ? {} : { cancel_erase_at: Number(user.cancel_erase_at) }),
    session: { created_at: session.createdAt, expires_at: session.expiresAt },
  };
}
