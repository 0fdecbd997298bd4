/**
 * Redirect targets as attackers spell them, and what the one redirect rule makes of each, for a page on
 * `https://passport.example.com` that allows `https://app.example.com`. `null` means refused (the caller's
 * default is used). Shared by the protocol's unit test, the server's route tests and the browser tests.
 */
export const REDIRECT_ORIGIN = 'https://passport.example.com';
export const REDIRECT_ALLOWED = 'https://app.example.com';

export const REDIRECT_SPELLINGS: readonly (readonly [target: string, expected: string | null])[] = [
  // Accepted: same-origin paths (normalised) and exactly allowed origins.
  ['/', '/'],
  ['/workbench', '/workbench'],
  ['/workbench?tab=devices#top', '/workbench?tab=devices#top'],
  ['/a/../workbench', '/workbench'],
  ['/a/./b', '/a/b'],
  ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
  ['/%252F%252Fevil.example', '/%252F%252Fevil.example'],
  ['/x?next=//evil.example', '/x?next=//evil.example'],
  ['https://passport.example.com/workbench', 'https://passport.example.com/workbench'],
  ['https://app.example.com/', 'https://app.example.com/'],
  ['https://app.example.com/after?x=1', 'https://app.example.com/after?x=1'],
  ['HTTPS://APP.EXAMPLE.COM/after', 'https://app.example.com/after'],
  ['https://app.example.com:443/after', 'https://app.example.com/after'],
  ['https://passport.example.com//evil.example', 'https://passport.example.com//evil.example'],
  // Dot segments that leave a protocol-relative path once normalised.
  ['/.//evil.example', null],
  ['/./\u002f/evil.example', null],
  ['/..//evil.example', null],
  ['/a/..//evil.example', null],
  ['/%2e//evil.example', null],
  ['/%2E//evil.example', null],
  ['/%2e%2e//evil.example', null],
  ['/.%2e//evil.example', null],
  ['/a/%2e%2e//evil.example', null],
  ['/./././/evil.example', null],
  ['/.//evil.example/path?x=1', null],
  // Protocol-relative and slash runs.
  ['//evil.example', null],
  ['///evil.example', null],
  ['////evil.example', null],
  ['//evil.example/%2e%2e', null],
  // Backslashes, which browsers read as slashes.
  ['/\\evil.example', null],
  ['\\\\evil.example', null],
  ['\\/evil.example', null],
  ['/\\/evil.example', null],
  ['https:\\\\evil.example', null],
  // Tabs, newlines and other control characters, which browsers drop.
  ['/\t/evil.example', null],
  ['/\n/evil.example', null],
  ['/\r/evil.example', null],
  ['/\u0000/evil.example', null],
  ['/\u007f/evil.example', null],
  ['java\tscript:alert(1)', null],
  // Other hosts, schemes in any case, userinfo.
  ['https://evil.example', null],
  ['http://evil.example/', null],
  ['HTTPS://EVIL.EXAMPLE', null],
  ['https://app.example.com.evil.example/', null],
  ['https://evil.example#https://app.example.com', null],
  ['https://evil.example?https://app.example.com', null],
  ['https://app.example.com@evil.example/', null],
  ['https://user:pass@app.example.com/', null],
  ['https://app.example.com:8443/', null],
  ['http://app.example.com/', null],
  ['https://passport.example.com@evil.example', null],
  ['javascript:alert(1)', null],
  ['JavaScript:alert(1)', null],
  ['JAVASCRIPT:alert(1)', null],
  ['data:text/html,<script>alert(1)</script>', null],
  ['vbscript:msgbox(1)', null],
  ['ftp://app.example.com/', null],
  ['https:evil.example', null],
  ['https:/evil.example', null],
  ['http:evil.example', null],
  // IDN dots and look-alikes.
  ['https://evil\u3002example', null],
  ['https://app\u3002example\u3002com.evil.example/', null],
  ['https://evil\uff0eexample/', null],
  ['//evil\u3002example', null],
  // Not a path at all, or too long.
  ['evil.example', null],
  ['workbench', null],
  ['.//evil.example', null],
  ['', null],
  [' //evil.example', null],
  [`/${'a'.repeat(2048)}`, null],
  // Double encoding stays encoded (a path on our origin), never decoded into another host.
  ['%2F%2Fevil.example', null],
  ['/%5Cevil.example', '/%5Cevil.example'],
];
