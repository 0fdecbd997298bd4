// WeChat's website sign-in on loopback (its QR page, the phone's answer, the token and user info
// calls): one peer, shared with the server's own tests.
export { startWeChatPeer, type WeChatPeer } from '../../apps/passport-server/test/support/wechat-peer';
