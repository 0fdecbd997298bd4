// Budget, brotli, at the measured figure (any growth fails CI): the client ships none of the schemas.
// 865 B with the users', organisations' and audit calls beside the webhooks' (each a path and a method).
export default [
  {
    name: 'createManagementClient',
    path: 'dist/index.js',
    import: '{ createManagementClient, ManagementError }',
    limit: '865 B',
  },
];
