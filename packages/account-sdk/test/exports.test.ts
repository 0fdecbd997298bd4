import { expect, it } from 'vitest';
import * as sdk from '../src';
import * as passkeys from '../src/passkeys';
import * as protocol from '../src/protocol';

const surface = (module: object) =>
  Object.entries(module)
    .map(([name, value]) => `${name}: ${typeof value}`)
    .sort();

it('pins the public surface of @portico/account-sdk', () => {
  expect(surface(sdk)).toMatchSnapshot();
});

it('pins the public surface of @portico/account-sdk/protocol', () => {
  expect(surface(protocol)).toMatchSnapshot();
});

it('pins the public surface of @portico/account-sdk/passkeys', () => {
  expect(surface(passkeys)).toMatchSnapshot();
});
