// Budget, brotli, at the measured figure (any growth fails CI): the client ships none of the schemas.
// 905 B with the users', organisations', audit and OAuth apps' calls beside the webhooks' (each a path
// and a method).
export default [
  {
    name: 'createManagementClient',
    path: 'dist/index.js',
    import: '{ createManagementClient, ManagementError }',
    limit: '905 B',
  },
];
