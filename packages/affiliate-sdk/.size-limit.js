// Budgets, brotli (any growth fails CI). The account SDK is the page's already: not counted.
// Issue 13 (invitations, manager transfer) measured: protocol 2.42 kB (20 paths, 12 error codes with zh/en
// texts), every call 2.9 kB (20 calls), the identity picker 743 B: the one `affiliatePaths` object every
// call reads grew by the 20 new paths. The multi-call flows (createManagerTransfer, createInvitationAcceptance,
// leaveOrganisation and their shared state holder) measured +505 B on the whole entry: 3.42 kB.
// The audit log (the auditList and auditExport paths, the `audit` resource of the statement, listAuditLog
// and auditExportUrl) measured protocol 2531 B (+101 B), the whole entry 3.61 kB (+179 B) and the
// identity picker 766 B (+16 B: it reads the one `affiliatePaths` object, which grew by the two paths).
// The flows' state holder is the account SDK's `createState` (exported for them) instead of a copy of
// it: the whole entry measured 3557 B (-53 B).
// An organisation's API keys, e-mail domains and single sign-on connection (ten paths in the one
// `affiliatePaths` object, their calls, the `sso` resource of the statement) measured protocol 2.62 kB,
// the whole entry 3.75 kB and the identity picker 875 B (it reads the one paths object).
// Enterprise sign-in's policy and the organisation's second factor (their paths, calls and error codes,
// the manager transfer's countdown) measured protocol 2743 B, the whole entry 4021 B and the identity
// picker 910 B.
// A SAML connection (its path, `saveSamlConnection`) measured protocol 2763 B, the whole entry 4034 B
// and the identity picker 933 B (it reads the one paths object).
// secondFactorPlugin (answers SECOND_FACTOR_REQUIRED with a dialog, then sends the call again) measured
// the whole entry 4295 B (+274 B); 4313 B beside the SAML connection's path.
// SCIM's memberships that wait for the person (the membership/accept path, `answerMembership`, the
// two codes with their zh/en texts in this range instead of the account SDK's) and the JIT switch
// measured protocol 2876 B (+111 B), the whole entry 4432 B (+119 B), the identity picker 938 B.
export default [
  {
    name: 'protocol (whole entry), the account SDK not counted',
    path: 'dist/protocol.js',
    ignore: ['@portico/account-sdk'],
    limit: '2876 B',
  },
  {
    name: 'every call, the flows, affiliatePlugin and secondFactorPlugin, the account SDK not counted',
    path: 'dist/index.js',
    ignore: ['@portico/account-sdk'],
    limit: '4432 B',
  },
  {
    name: 'subjectLoginList + subjectLogin (an identity picker), the account SDK not counted',
    path: 'dist/index.js',
    import: '{ subjectLoginList, subjectLogin }',
    ignore: ['@portico/account-sdk'],
    limit: '938 B',
  },
];
