/**
 * Body fields named by the validation middleware on a route rather than by the handler, as
 * hagopj13/node-express-boilerplate writes it: `validate(userValidation.createUser)` where
 * `createUser = { body: Joi.object().keys({ … }), params: … }` lives in a validations module,
 * and celebrate's `{ [Segments.BODY]: Joi.object().keys({ … }) }` written in place. Before, these
 * routes read "whole body".
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';

const project = tempProjects('validation-middleware', { 'package.json': '{ "name": "x", "dependencies": { "express": "^4.19.2", "joi": "^17.0.0", "celebrate": "^15.0.0" } }' });

describe('validation middleware', () => {
  it('takes the body keys of a request schema named by the middleware, and of one written in place', async () => {
    const dir = project({
      'src/validations/user.validation.js': [
        "const Joi = require('joi');",
        'const createUser = {',
        '  body: Joi.object().keys({ email: Joi.string().email(), name: Joi.string() }),',
        '};',
        'const updateUser = {',
        '  params: Joi.object().keys({ userId: Joi.string() }),',
        '  body: Joi.object()',
        '    .keys({ name: Joi.string() })',
        '    .min(1),',
        '};',
        'module.exports = { createUser, updateUser };',
        '',
      ].join('\n'),
      'src/routes/user.route.js': [
        "const express = require('express');",
        "const { celebrate, Joi, Segments } = require('celebrate');",
        "const validate = require('../middlewares/validate');",
        "const userValidation = require('../validations/user.validation');",
        "const userController = require('../controllers/user.controller');",
        'const router = express.Router();',
        "router.route('/').post(validate(userValidation.createUser), userController.createUser);",
        "router.route('/:userId').patch(validate(userValidation.updateUser), userController.updateUser);",
        "router.post('/:userId/notes', celebrate({ [Segments.BODY]: Joi.object().keys({ text: Joi.string() }) }), userController.addNote);",
        'module.exports = router;',
        '',
      ].join('\n'),
      'src/controllers/user.controller.js': [
        'const createUser = async (req, res) => res.status(201).send(await userService.createUser(req.body));',
        'const updateUser = async (req, res) => res.send(await userService.updateUserById(req.params.userId, req.body));',
        'const addNote = async (req, res) => res.send(await noteService.add(req.params.userId, req.body));',
        'module.exports = { createUser, updateUser, addNote };',
        '',
      ].join('\n'),
    });
    const fields = Object.fromEntries((await inspectCodebase(dir)).endpoints.map((e) => [`${e.method} ${e.route}`, e.bodyFields]));
    expect(fields).toEqual({ 'POST /': ['email', 'name'], 'PATCH /:userId': ['name'], 'POST /:userId/notes': ['text'] });
  });
});
