import fp from 'fastify-plugin';
import checkLogin from './check-login';
import health from './health';
import jwks from './jwks';
import login from './login';
import logout from './logout';
import userInfo from './user-info';
import userToken from './user-token';
import waitlist from './waitlist';

/**
 * The app API (`/CheckLogin`, `/Logout`, `/GetUserInfo`, `/Login`, `/GetUserToken`) and the JWKS.
 * The waitlist pair (`/CheckWaitListEnable`, `/SubmitWaitList`) and the operator's waitlist routes.
 * The health probes (`/livez`, `/readyz`).
 */
export default fp(
  async (app) => {
    await app.register(async (scope) => {
      await scope.register(checkLogin);
      await scope.register(logout);
      await scope.register(userInfo);
      await scope.register(login);
      await scope.register(userToken);
      await scope.register(jwks);
      await scope.register(waitlist);
      await scope.register(health);
    });
  },
  { name: 'app-api', dependencies: ['sessions', 'csrf', 'tokens', 'waitlist'] },
);
