// Budget, brotli, at the measured figure (any growth fails CI): the client ships none of the schemas.
export default [
  {
    name: 'createManagementClient',
    path: 'dist/index.js',
    import: '{ createManagementClient, ManagementError }',
    limit: '778 B',
  },
];
