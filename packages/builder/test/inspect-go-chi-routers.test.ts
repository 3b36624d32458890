/**
 * go-chi routers as the go-chi examples and dhax/go-base lay them out: `Route` closures nesting
 * prefixes, `Group` closures adding none, `Mount` of a router another function builds and returns
 * (same package, other package, a method value, a struct field's method), and `r.With(mw).Post`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectCodebase } from '../src/inspect/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const GO_MOD = 'module example.com/shop\n\ngo 1.22\n\nrequire github.com/go-chi/chi/v5 v5.1.0\n';

/** `METHOD /route` of every mutating endpoint the inspector finds in a project of these Go files. */
async function routesOf(files: Record<string, string[]>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ib-go-chi-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'go.mod'), GO_MOD);
  for (const [path, lines] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), `${lines.join('\n')}\n`);
  }
  return (await inspectCodebase(dir)).endpoints.map((e) => `${e.method} ${e.route}`).sort();
}

const CHI_IMPORTS = ['import (', '\t"net/http"', '', '\t"github.com/go-chi/chi/v5"', ')', ''];
const HANDLERS = ['create', 'cancel', 'change', 'cart', 'refund', 'remove'].map((name) => `func ${name}(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }`);

describe('go-chi Route and Group closures', () => {
  it('nests Route prefixes, back to the outer prefix after an inner closure ends', async () => {
    const routes = await routesOf({
      'main.go': ['package main', '', ...CHI_IMPORTS,
        'func main() {',
        '\tr := chi.NewRouter()',
        '\tr.Route("/orders", func(r chi.Router) {',
        '\t\tr.Post("/", create)',
        '\t\tr.Route("/{orderID}", func(r chi.Router) {',
        "\t\t\t// Braces in the path above and this comment's apostrophe open no block.",
        '\t\t\tr.Delete("/", cancel)',
        '\t\t})',
        '\t\tr.Put("/{orderID}/address", change)',
        '\t})',
        '\tr.Post("/carts", cart)',
        '\thttp.ListenAndServe(":8080", r)',
        '}', '', ...HANDLERS],
    });
    expect(routes).toEqual(['DELETE /orders/{orderID}', 'POST /carts', 'POST /orders', 'PUT /orders/{orderID}/address']);
  });

  it('counts the routes and mounts of a Group under the prefix of the router it groups', async () => {
    const routes = await routesOf({
      'main.go': ['package main', '', ...CHI_IMPORTS,
        'func main() {',
        '\tr := chi.NewRouter()',
        '\tr.Mount("/auth", authRouter())',
        '\tr.Group(func(r chi.Router) {',
        '\t\tr.Use(requireUser)',
        '\t\tr.Mount("/admin", adminRouter())',
        '\t})',
        '\thttp.ListenAndServe(":8080", r)',
        '}', '',
        'func authRouter() chi.Router {',
        '\tr := chi.NewRouter()',
        '\tr.Post("/login", create)',
        '\tr.Group(func(r chi.Router) {',
        '\t\tr.Post("/logout", cancel)',
        '\t})',
        '\treturn r',
        '}', '',
        'func adminRouter() *chi.Mux {',
        '\tr := chi.NewRouter()',
        '\tr.Delete("/users/{userID}", remove)',
        '\treturn r',
        '}', '',
        'func requireUser(next http.Handler) http.Handler { return next }', '', ...HANDLERS],
    });
    expect(routes).toEqual(['DELETE /admin/users/{userID}', 'POST /auth/login', 'POST /auth/logout']);
  });
});

describe('go-chi Mount of a router built elsewhere', () => {
  it('prefixes the routes of a function of another package, and of a method on a value its constructor built', async () => {
    const routes = await routesOf({
      'main.go': ['package main', '', 'import (', '\t"net/http"', '', '\t"github.com/go-chi/chi/v5"', '', '\t"example.com/shop/billing"', '\t"example.com/shop/auth"', ')', '',
        'func main() {',
        '\tauthResource, err := auth.NewResource()',
        '\tif err != nil {',
        '\t\tpanic(err)',
        '\t}',
        '\tr := chi.NewRouter()',
        '\tr.Mount("/billing", billing.Router())',
        '\tr.Mount("/auth", authResource.Router())',
        '\thttp.ListenAndServe(":8080", r)',
        '}'],
      'billing/routes.go': ['package billing', '', ...CHI_IMPORTS,
        'func Router() http.Handler {',
        '\tr := chi.NewRouter()',
        '\tr.Post("/refunds", refund)',
        '\treturn r',
        '}', '', ...HANDLERS],
      'auth/api.go': ['package auth', '', ...CHI_IMPORTS,
        'type Resource struct{}', '',
        'func NewResource() (*Resource, error) { return &Resource{}, nil }', '',
        'func (rs *Resource) Router() *chi.Mux {',
        '\tr := chi.NewRouter()',
        '\tr.Post("/token", rs.token)',
        '\treturn r',
        '}', '',
        'func (rs *Resource) token(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }'],
    });
    expect(routes).toEqual(['POST /auth/token', 'POST /billing/refunds']);
  });

  it('tells apart two resources’ same-named router methods in one package by the struct field’s type', async () => {
    const routes = await routesOf({
      'main.go': ['package main', '', 'import (', '\t"net/http"', '', '\t"github.com/go-chi/chi/v5"', '', '\t"example.com/shop/app"', ')', '',
        'func main() {',
        '\tappAPI := app.NewAPI()',
        '\tr := chi.NewRouter()',
        '\tr.Mount("/api", appAPI.Router())',
        '\thttp.ListenAndServe(":8080", r)',
        '}'],
      'app/api.go': ['package app', '', 'import "github.com/go-chi/chi/v5"', '',
        'type API struct {',
        '\tAccount *AccountResource',
        '\tProfile *ProfileResource',
        '}', '',
        'func NewAPI() *API { return &API{Account: &AccountResource{}, Profile: &ProfileResource{}} }', '',
        'func (a *API) Router() *chi.Mux {',
        '\tr := chi.NewRouter()',
        '\tr.Mount("/account", a.Account.router())',
        '\tr.Mount("/profile", a.Profile.router())',
        '\treturn r',
        '}'],
      'app/account.go': ['package app', '', ...CHI_IMPORTS,
        'type AccountResource struct{}', '',
        'func (rs *AccountResource) router() *chi.Mux {',
        '\tr := chi.NewRouter()',
        '\tr.Delete("/", rs.remove)',
        '\treturn r',
        '}', '',
        'func (rs *AccountResource) remove(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }'],
      'app/profile.go': ['package app', '', ...CHI_IMPORTS,
        'type ProfileResource struct{}', '',
        'func (rs *ProfileResource) router() *chi.Mux {',
        '\tr := chi.NewRouter()',
        '\tr.Put("/", rs.update)',
        '\treturn r',
        '}', '',
        'func (rs *ProfileResource) update(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }'],
    });
    expect(routes).toEqual(['DELETE /api/account', 'PUT /api/profile']);
  });

  it('prefixes a sub-router variable it mounts and a function Route hands the sub-router to', async () => {
    const routes = await routesOf({
      'main.go': ['package main', '', ...CHI_IMPORTS,
        'func main() {',
        '\tr := chi.NewRouter()',
        '\tcarts := chi.NewRouter()',
        '\tcarts.Post("/", cart)',
        '\tr.Mount("/carts", carts)',
        '\tr.Route("/refunds", refundRoutes)',
        '\thttp.ListenAndServe(":8080", r)',
        '}', '',
        'func refundRoutes(r chi.Router) {',
        '\tr.Post("/", refund)',
        '}', '', ...HANDLERS],
    });
    expect(routes).toEqual(['POST /carts', 'POST /refunds']);
  });
});

describe('go-chi With', () => {
  it('finds a route registered through r.With(middleware) chains, inside and outside a Route', async () => {
    const routes = await routesOf({
      'main.go': ['package main', '', 'import (', '\t"net/http"', '\t"time"', '', '\t"github.com/go-chi/chi/v5"', '\t"github.com/go-chi/chi/v5/middleware"', ')', '',
        'func main() {',
        '\tr := chi.NewRouter()',
        '\tr.With(middleware.NoCache).Post("/orders", create)',
        '\tr.With(middleware.Timeout(5 * time.Second)).With(middleware.NoCache).Delete("/orders/{orderID}", cancel)',
        '\tr.With(middleware.NoCache).Route("/carts", func(r chi.Router) {',
        '\t\tr.With(middleware.NoCache).Put("/{cartID}", http.HandlerFunc(cart))',
        '\t})',
        '\thttp.ListenAndServe(":8080", r)',
        '}', '', ...HANDLERS],
    });
    expect(routes).toEqual(['DELETE /orders/{orderID}', 'POST /orders', 'PUT /carts/{cartID}']);
  });
});
