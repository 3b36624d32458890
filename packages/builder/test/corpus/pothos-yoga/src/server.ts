import { createServer } from 'node:http';
import { createYoga } from 'graphql-yoga';
import { createTransport } from 'nodemailer';
import { schema } from './schema';

const mailer = createTransport({ host: process.env.SMTP_HOST, port: 587 });
const yoga = createYoga({ schema, graphqlEndpoint: '/gql', context: () => ({ mailer }) });

createServer(yoga).listen(4000);
