export const config = {
  api: { prefix: '/api/v1' },
  controllers: [__dirname + '/../api/controllers/*.ts'],
};
