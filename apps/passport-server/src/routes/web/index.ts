import type { FastifyPluginAsync } from 'fastify';
import tickets from '../../plugins/app/tickets';
import account from './account';
import checkRegistered from './check-registered';
import login from './login';
import logout from './logout';
import password from './password';
import register from './register';
import secondVerify from './second-verify';
import sendCode from './send-code';
import verify from './verify';

/** The /passport/web family (and /passport/mobile/register/, /passport/mobile_email_register/ with it). */
const web: FastifyPluginAsync = async (app) => {
  // Verify tickets serve these routes only; registered here so app.ts stays as it is.
  await app.register(tickets);
  await app.register(sendCode);
  await app.register(login);
  await app.register(account);
  await app.register(logout);
  await app.register(verify);
  await app.register(register);
  await app.register(password);
  await app.register(checkRegistered);
  await app.register(secondVerify);
};

export default web;
