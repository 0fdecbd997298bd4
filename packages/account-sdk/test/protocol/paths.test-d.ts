import { expectTypeOf, test } from 'vitest';
import { type PathKey, paths, profilePaths, webPaths } from '../../src/protocol';

test('path keys are typed as the camelCase of their names', () => {
  expectTypeOf<PathKey<'email/send_code'>>().toEqualTypeOf<'emailSendCode'>();
  expectTypeOf<PathKey<'email/register/v2'>>().toEqualTypeOf<'emailRegisterV2'>();
});

test('each path is typed as its literal string', () => {
  expectTypeOf(webPaths.emailSendCode).toEqualTypeOf<'/passport/web/email/send_code/'>();
  expectTypeOf(paths.app.CheckLogin).toEqualTypeOf<'/CheckLogin'>();
  expectTypeOf(paths.vc.setting).toEqualTypeOf<'/vc/setting'>();
  expectTypeOf(
    profilePaths['settings{aid}DefaultAvatarList'],
  ).toEqualTypeOf<'/web/user/settings/{aid}/default_avatar_list/'>();
});
