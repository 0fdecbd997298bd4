/**
 * The QR sign-in payloads (schemas/qr) checked both ways against the wire types of
 * `@portico/account-sdk/protocol`, as test/protocol-types.test-d.ts does for the others.
 */
import type { Static, TSchema } from 'typebox';
import type {
  QrcodeData,
  QrDecisionData,
  QrLoginData,
  QrScanData,
  QrStatusData,
  QrVerifyScanData,
} from '../src/protocol';
import type {
  QrcodeData as QrcodeSchema,
  QrDecisionData as QrDecisionSchema,
  QrLoginData as QrLoginSchema,
  QrScanData as QrScanSchema,
  QrStatusData as QrStatusSchema,
  QrVerifyScanData as QrVerifyScanSchema,
} from '../src/schemas/qr';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;
type Matches<S extends TSchema, P> = Same<Static<S>, P>;

export type QrChecks = [
  Expect<Matches<typeof QrcodeSchema, QrcodeData>>,
  Expect<Matches<typeof QrStatusSchema, QrStatusData>>,
  Expect<Matches<typeof QrScanSchema, QrScanData>>,
  Expect<Matches<typeof QrVerifyScanSchema, QrVerifyScanData>>,
  Expect<Matches<typeof QrDecisionSchema, QrDecisionData>>,
  Expect<Matches<typeof QrLoginSchema, QrLoginData>>,
];
