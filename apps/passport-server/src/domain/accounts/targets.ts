import type { Config } from '../../config';
import { PassportError } from '../../errors';
import { normaliseEmail, normaliseMobile } from '../../lib/identifiers';

/** The settings a mobile number is read by (the app's, or an operation's `ctx.config`). */
type MobileSettings = { config: Pick<Config, 'defaultRegion' | 'fictionalNumbers' | 'allowedRegions'> };

/** A mobile number in E.164, or INVALID_MOBILE / REGION_NOT_ALLOWED. */
export function mobileOf(app: MobileSettings, input: string): string {
  const mobile = normaliseMobile(input, app.config.defaultRegion, {
    fictional: app.config.fictionalNumbers,
  });
  if (!mobile) throw new PassportError('invalidMobile');
  const allowed = app.config.allowedRegions;
  if (allowed && (!mobile.country || !allowed.includes(mobile.country)))
    throw new PassportError('regionNotAllowed');
  return mobile.e164;
}

/** A normalised e-mail address, or INVALID_EMAIL. */
export function emailOf(input: string): string {
  const email = normaliseEmail(input);
  if (!email) throw new PassportError('invalidEmail');
  return email;
}
