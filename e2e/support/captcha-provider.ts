// The challenge providers on loopback (Turnstile's and hCaptcha's widget scripts and siteverify,
// GeeTest's validate): one peer, shared with the server's own tests.
export {
  type CaptchaProviderPeer,
  GOOD,
  PEER_PATHS,
  SECRETS,
  startCaptchaProviderPeer,
} from '../../apps/passport-server/test/support/captcha-provider-peer';
