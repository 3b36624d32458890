// Command settlement records the card processor's settlement reports, on the standard library's router.
package main

import (
	"context"
	"encoding/json"
	"log"
	"net/http"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"
)

var pool *pgxpool.Pool

func main() {
	var err error
	pool, err = pgxpool.New(context.Background(), os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /settlements", http.HandlerFunc(recordSettlement))
	mux.HandleFunc("POST /settlements/{id}/retries", retrySettlement)
	log.Fatal(http.ListenAndServe(":8081", mux))
}

type settlementReport struct {
	BatchID     string `json:"batch_id"`
	TotalCents  int64  `json:"total_cents"`
	SettledDate string `json:"settled_date"`
}

func recordSettlement(w http.ResponseWriter, r *http.Request) {
	var report settlementReport
	if err := json.NewDecoder(r.Body).Decode(&report); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	_, err := pool.Exec(r.Context(), "INSERT INTO settlements (batch_id, total_cents, settled_date) VALUES ($1, $2, $3)", report.BatchID, report.TotalCents, report.SettledDate)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

func retrySettlement(w http.ResponseWriter, r *http.Request) {
	_, err := pool.Exec(r.Context(), "UPDATE settlements SET status = 'pending' WHERE id = $1", r.PathValue("id"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}
