/** The shared adapter suite against Express 5, in-process over real HTTP. */
import express from 'express';
import { runAdapterSuite } from '../../src/testing/adapter-suite.js';
import { serveOnExpress } from './suite/express-server.js';

runAdapterSuite({ name: 'express 5', createServer: (routes) => serveOnExpress(express, routes) });
