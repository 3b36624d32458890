// The paths of the public API in one table, shared with the e2e client.
const bookingsRoot = 'bookings';

export const bookingRoutes = {
  root: bookingsRoot,
  byId: ':bookingId',
  cancel: `:bookingId/cancellation`,
};
