// Package server wires the resources of the rental desk into one chi router.
package server

import (
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/jackc/pgx/v5/pgxpool"

	"example.com/rental-desk/backoffice"
	"example.com/rental-desk/booking"
)

var db *pgxpool.Pool

// New builds the HTTP handler: public booking routes, partner routes and a staff-only back office.
func New(pool *pgxpool.Pool) http.Handler {
	db = pool
	bookings := booking.NewResource(pool)
	console, err := backoffice.NewConsole(pool)
	if err != nil {
		panic(err)
	}

	r := chi.NewRouter()
	r.Use(middleware.RequestID)
	// The desk's public API: it isn't behind staff auth.
	r.Mount("/bookings", bookings.Routes())
	r.Mount("/partners", partnerRoutes())

	r.Group(func(r chi.Router) {
		r.Use(requireStaff)
		r.Mount("/staff", console.Router())
		r.With(middleware.NoCache).Post("/maintenance-windows", openMaintenanceWindow)
	})

	r.Get("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	return r
}

func requireStaff(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Staff-Token") == "" {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

type maintenanceWindowRequest struct {
	VehicleID string `json:"vehicle_id"`
	StartsAt  string `json:"starts_at"`
	EndsAt    string `json:"ends_at"`
}

func openMaintenanceWindow(w http.ResponseWriter, r *http.Request) {
	var req maintenanceWindowRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	_, err := db.Exec(r.Context(), "INSERT INTO maintenance_windows (vehicle_id, starts_at, ends_at) VALUES ($1, $2, $3)", req.VehicleID, req.StartsAt, req.EndsAt)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusCreated)
}
