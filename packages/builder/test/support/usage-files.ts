/**
 * Small files that use the generated glue the way a project does — mounted on a real Express,
 * Fastify, Hono, Koa or NestJS app (type-checked with the framework's own types), or a Gin engine
 * driven by a Go test — so a compile proves the glue fits the framework, not only itself.
 */
import type { Artifact } from '../../src/design/model.js';

/** The first header-keyed action the glue file declares (`export type HeaderAction = "a" | "b"`). */
function headerAction(glue: string | undefined): string | undefined {
  return /export type HeaderAction = "([A-Za-z0-9]+)"/.exec(glue ?? '')?.[1];
}

/**
 * A usage file for the framework's generated glue; relative imports with `extension` ('' or '.js').
 * @example usageFile('express', artifacts, '.js').includes("from './express.js'")
 */
export function usageFile(framework: string, code: readonly Artifact[], extension: string): string {
  const action = headerAction(code.find((a) => a.path === `${framework}.ts`)?.content);
  const from = (file: string) => `'./${file}${extension}'`;
  const fingerprint = `import { fingerprint } from ${from('fingerprints')};\nexport const sample = fingerprint;\n`;
  if (!action) return fingerprint;
  switch (framework) {
    case 'express':
      return `${fingerprint}import express from 'express';
import { idempotent } from ${from('express')};
const app = express();
app.post('/usage', express.json(), idempotent.${action}, (_req, res) => {
  res.status(201).json({ ok: true });
});
void app;
`;
    case 'fastify':
      return `${fingerprint}import Fastify from 'fastify';
import { idempotentRoutes } from ${from('fastify')};
const app = Fastify();
void app.register(idempotentRoutes('${action}', (routes) => {
  routes.post('/usage', async (_request, reply) => reply.code(201).send({ ok: true }));
}));
void app;
`;
    case 'hono':
      return `${fingerprint}import { Hono } from 'hono';
import { idempotent, type AppEnv } from ${from('hono')};
const app = new Hono<AppEnv>();
app.post('/usage', idempotent.${action}, (c) => c.json({ ok: true }, 201));
void app;
`;
    case 'koa':
      return `${fingerprint}import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import { idempotent } from ${from('koa')};
const router = new Router();
router.post('/usage', bodyParser(), idempotent.${action}, (ctx) => {
  ctx.status = 201;
  ctx.body = { ok: true, held: ctx.state.idempotency !== undefined };
});
const app = new Koa();
app.use(router.routes());
void app;
`;
    case 'nestjs':
      return `${fingerprint}import { Body, Controller, Post } from '@nestjs/common';
import { idempotent } from ${from('nestjs')};
@Controller('usage')
export class UsageController {
  @Post()
  @idempotent.${action}
  create(@Body() body: Record<string, unknown>) {
    return body;
  }
}
`;
    default:
      return fingerprint;
  }
}

/** A JSON body with every significant field (dot paths nested) set to `value`. */
function body(fields: readonly string[], value: number): string {
  const root: Record<string, unknown> = {};
  for (const field of fields.length > 0 ? fields : ['amount']) {
    const parts = field.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts[parts.length - 1] ?? field] = value;
  }
  return JSON.stringify(root);
}

/**
 * A Go test (build tag gin) that mounts the generated Gin glue on a gin engine over the in-memory
 * test store: the handler binds the body, a retry is replayed, a changed body is refused.
 * @example ginUsageTest('createTransfer', ['amount', 'currency'])
 */
export function ginUsageTest(action: string, fields: readonly string[]): string {
  return `//go:build gin

package idempotency

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

func TestGinGlue(t *testing.T) {
	gin.SetMode(gin.TestMode)
	router := gin.New()
	calls := 0
	router.POST("/usage", Gin(newMemoryStore(), ${JSON.stringify(action)}, func(*gin.Context) string { return "usr-1" }, func(c *gin.Context) (int, any, error) {
		calls++
		var body map[string]any
		if err := c.ShouldBindJSON(&body); err != nil {
			return http.StatusBadRequest, map[string]any{"error": err.Error()}, nil
		}
		return http.StatusCreated, body, nil
	}))
	send := func(payload string) *httptest.ResponseRecorder {
		request := httptest.NewRequest(http.MethodPost, "/usage", strings.NewReader(payload))
		request.Header.Set("Content-Type", "application/json")
		request.Header.Set("Idempotency-Key", "3f0b6c1e-8a52-4d7e-9a44-2f6f1c0e5b21")
		recorder := httptest.NewRecorder()
		router.ServeHTTP(recorder, request)
		return recorder
	}
	first := send(\`${body(fields, 1)}\`)
	if first.Code != http.StatusCreated || strings.Contains(first.Body.String(), "error") {
		t.Fatalf("first request: %d %s (the handler must still read the body)", first.Code, first.Body.String())
	}
	again := send(\`${body(fields, 1)}\`)
	if again.Header().Get("Idempotent-Replayed") != "true" || again.Code != http.StatusCreated || calls != 1 {
		t.Fatalf("retry: %d replayed=%q calls=%d", again.Code, again.Header().Get("Idempotent-Replayed"), calls)
	}
	changed := send(\`${body(fields, 2)}\`)
	if changed.Code != http.StatusConflict || calls != 1 {
		t.Fatalf("changed body: %d calls=%d", changed.Code, calls)
	}
}
`;
}
