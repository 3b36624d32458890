/**
 * Go: a router group passed to a method of a value another package built (`h :=
 * handler.NewHandler(…)`, `h.Register(v1)`), the layout of the Echo RealWorld example: the
 * method's routes carry the caller's group prefix.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectCodebase } from '../src/inspect/index.js';

const dir = mkdtempSync(join(tmpdir(), 'ib-go-mounts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const files: Record<string, string> = {
  'go.mod': 'module example.com/shop\n\ngo 1.22\n\nrequire github.com/labstack/echo/v4 v4.12.0\n',
  'main.go': [
    'package main',
    '',
    'import (',
    '\t"github.com/labstack/echo/v4"',
    '\t"example.com/shop/handler"',
    ')',
    '',
    'func main() {',
    '\te := echo.New()',
    '\tv1 := e.Group("/api")',
    '\th := handler.NewHandler()',
    '\th.Register(v1)',
    '\te.Logger.Fatal(e.Start(":8080"))',
    '}',
    '',
  ].join('\n'),
  'handler/routes.go': [
    'package handler',
    '',
    'import "github.com/labstack/echo/v4"',
    '',
    'func (h *Handler) Register(v1 *echo.Group) {',
    '\torders := v1.Group("/orders")',
    '\torders.POST("", h.CreateOrder)',
    '\torders.DELETE("/:id", h.CancelOrder)',
    '}',
    '',
  ].join('\n'),
  'handler/handler.go': [
    'package handler',
    '',
    'import "github.com/labstack/echo/v4"',
    '',
    'type Handler struct{}',
    '',
    'func NewHandler() *Handler { return &Handler{} }',
    '',
    'func (h *Handler) CreateOrder(c echo.Context) error { return c.NoContent(201) }',
    '',
    'func (h *Handler) CancelOrder(c echo.Context) error { return c.NoContent(204) }',
    '',
  ].join('\n'),
};
for (const [path, text] of Object.entries(files)) {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

describe('Go router groups passed to a method', () => {
  it('prefixes the method’s routes with the group the caller passed', async () => {
    const routes = (await inspectCodebase(dir)).endpoints.map((e) => `${e.method} ${e.route}`).sort();
    expect(routes).toEqual(['DELETE /api/orders/:id', 'POST /api/orders']);
  });
});
