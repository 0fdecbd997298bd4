// Budgets, brotli (any growth fails CI). The account SDK is the page's already: not counted.
export default [
  {
    name: 'protocol (whole entry), the account SDK not counted',
    path: 'dist/protocol.js',
    ignore: ['@portico/account-sdk'],
    limit: '1680 B',
  },
  {
    name: 'every call + affiliatePlugin, the account SDK not counted',
    path: 'dist/index.js',
    ignore: ['@portico/account-sdk'],
    limit: '1870 B',
  },
  {
    name: 'subjectLoginList + subjectLogin (an identity picker), the account SDK not counted',
    path: 'dist/index.js',
    import: '{ subjectLoginList, subjectLogin }',
    ignore: ['@portico/account-sdk'],
    limit: '510 B',
  },
];
