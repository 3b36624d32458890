/**
 * Go request bodies as dhax/go-base writes them: go-chi/render's `render.Bind(r, data)` on a
 * struct that embeds another package's struct (`type accountRequest struct { *pwdless.Account;
 * ProtectedID int \`json:"id"\` }`), and two packages each declaring their own `tokenRequest` —
 * each handler takes its own package's fields, never the other's.
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';

const project = tempProjects('go-bodies', { 'go.mod': 'module example.com/shop\n\ngo 1.22\n\nrequire github.com/go-chi/chi/v5 v5.0.12\n' });

const server = [
  'package main',
  '',
  'import (',
  '\t"net/http"',
  '',
  '\t"github.com/go-chi/chi/v5"',
  '\t"example.com/shop/accounts"',
  '\t"example.com/shop/auth"',
  ')',
  '',
  'func main() {',
  '\tr := chi.NewRouter()',
  '\tr.Post("/accounts", accounts.Create)',
  '\tr.Put("/accounts/tokens/{id}", accounts.RenameToken)',
  '\tr.Post("/auth/token", auth.Token)',
  '\thttp.ListenAndServe(":8080", r)',
  '}',
  '',
].join('\n');

const accountsPkg = [
  'package accounts',
  '',
  'import (',
  '\t"net/http"',
  '',
  '\t"github.com/go-chi/render"',
  '\t"example.com/shop/models"',
  ')',
  '',
  'type accountRequest struct {',
  '\t*models.Account',
  '\tProtectedID int `json:"id"`',
  '}',
  '',
  'func (d *accountRequest) Bind(r *http.Request) error { return nil }',
  '',
  'type tokenRequest struct {',
  '\tIdentifier string',
  '}',
  '',
  'func (d *tokenRequest) Bind(r *http.Request) error { return nil }',
  '',
  'func Create(w http.ResponseWriter, r *http.Request) {',
  '\tdata := &accountRequest{}',
  '\tif err := render.Bind(r, data); err != nil {',
  '\t\treturn',
  '\t}',
  '\tstore.Create(data.Account)',
  '}',
  '',
  'func RenameToken(w http.ResponseWriter, r *http.Request) {',
  '\tdata := &tokenRequest{}',
  '\tif err := render.Bind(r, data); err != nil {',
  '\t\treturn',
  '\t}',
  '\tstore.UpdateToken(data.Identifier)',
  '}',
  '',
].join('\n');

const authPkg = [
  'package auth',
  '',
  'import (',
  '\t"net/http"',
  '',
  '\t"github.com/go-chi/render"',
  ')',
  '',
  'type tokenRequest struct {',
  '\tToken string `json:"token"`',
  '}',
  '',
  'func (d *tokenRequest) Bind(r *http.Request) error { return nil }',
  '',
  'func Token(w http.ResponseWriter, r *http.Request) {',
  '\tbody := &tokenRequest{}',
  '\tif err := render.Bind(r, body); err != nil {',
  '\t\treturn',
  '\t}',
  '\tissue(body.Token)',
  '}',
  '',
].join('\n');

const models = 'package models\n\ntype Account struct {\n\tID    int    `json:"id"`\n\tEmail string `json:"email"`\n\tName  string `json:"name"`\n}\n';

describe('Go request bodies', () => {
  it('reads render.Bind bodies, with the fields an embedded struct promotes, from the handler’s own package', async () => {
    const dir = project({ 'main.go': server, 'accounts/handlers.go': accountsPkg, 'auth/handlers.go': authPkg, 'models/account.go': models });
    const fields = Object.fromEntries((await inspectCodebase(dir)).endpoints.map((e) => [`${e.method} ${e.route}`, [...e.bodyFields].sort()]));
    expect(fields).toEqual({
      'POST /accounts': ['email', 'id', 'name'],
      'PUT /accounts/tokens/{id}': ['Identifier'],
      'POST /auth/token': ['token'],
    });
  });
});
