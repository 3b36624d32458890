/**
 * Go 1.22 `ServeMux` method patterns: `HandleFunc("POST /x", h)` and `Handle("POST /x",
 * http.HandlerFunc(h))` (or any handler value) declare the same mutating route.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectCodebase } from '../src/inspect/index.js';

const dir = mkdtempSync(join(tmpdir(), 'ib-go-patterns-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'go.mod'), 'module example.com/refunds\n\ngo 1.22\n');
writeFileSync(join(dir, 'main.go'), [
  'package main',
  '',
  'import (',
  '\t"encoding/json"',
  '\t"net/http"',
  ')',
  '',
  'type refundRequest struct {',
  '\tPaymentID string `json:"payment_id"`',
  '\tAmount    int64  `json:"amount"`',
  '}',
  '',
  'func main() {',
  '\tmux := http.NewServeMux()',
  '\tmux.Handle("POST /refunds", http.HandlerFunc(createRefund))',
  '\tmux.HandleFunc("POST /refunds/{id}/retries", retryRefund)',
  '\tmux.Handle("DELETE /refunds/{id}", refundCanceller{})',
  '\thttp.ListenAndServe(":8080", mux)',
  '}',
  '',
  'func createRefund(w http.ResponseWriter, r *http.Request) {',
  '\tvar req refundRequest',
  '\tjson.NewDecoder(r.Body).Decode(&req)',
  '\tw.WriteHeader(http.StatusCreated)',
  '}',
  '',
  'func retryRefund(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusAccepted) }',
  '',
  'type refundCanceller struct{}',
  '',
  'func (refundCanceller) ServeHTTP(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }',
  '',
].join('\n'));

describe('Go 1.22 method patterns', () => {
  it('reads Handle like HandleFunc, with the function inside http.HandlerFunc as the handler', async () => {
    const endpoints = (await inspectCodebase(dir)).endpoints;
    expect(endpoints.map((e) => `${e.method} ${e.route}`).sort()).toEqual(['DELETE /refunds/{id}', 'POST /refunds', 'POST /refunds/{id}/retries']);
    const create = endpoints.find((e) => e.route === '/refunds');
    expect({ handler: create?.handler, fields: create?.bodyFields }).toEqual({ handler: 'createRefund', fields: ['payment_id', 'amount'] });
  });
});
