import { builder } from '../builder';
import './booking';
import './review';

export const schema = builder.toSchema();
