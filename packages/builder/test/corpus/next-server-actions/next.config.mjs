/** @type {import('next').NextConfig} */
export default { basePath: '/book' };
