// Package booking takes and changes customers' vehicle bookings.
package booking

import (
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Resource serves bookings.
type Resource struct {
	Pool *pgxpool.Pool
}

// NewResource returns a booking resource on the given pool.
func NewResource(pool *pgxpool.Pool) *Resource {
	return &Resource{Pool: pool}
}

// Routes provides the booking routes, relative to wherever they are mounted.
func (rs *Resource) Routes() chi.Router {
	r := chi.NewRouter()
	r.Post("/", rs.create)
	r.Route("/{bookingID}", func(r chi.Router) {
		r.Get("/", rs.get)
		r.Patch("/", rs.reschedule)
		r.Delete("/", rs.cancel)
	})
	return r
}

type bookingRequest struct {
	VehicleID  string `json:"vehicle_id"`
	CustomerID string `json:"customer_id"`
	PickupAt   string `json:"pickup_at"`
	ReturnAt   string `json:"return_at"`
}

func (rs *Resource) create(w http.ResponseWriter, r *http.Request) {
	var req bookingRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	_, err := rs.Pool.Exec(r.Context(), "INSERT INTO bookings (vehicle_id, customer_id, pickup_at, return_at) VALUES ($1, $2, $3, $4)", req.VehicleID, req.CustomerID, req.PickupAt, req.ReturnAt)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

func (rs *Resource) get(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusOK)
}

type rescheduleRequest struct {
	PickupAt string `json:"pickup_at"`
	ReturnAt string `json:"return_at"`
}

func (rs *Resource) reschedule(w http.ResponseWriter, r *http.Request) {
	var req rescheduleRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	_, err := rs.Pool.Exec(r.Context(), "UPDATE bookings SET pickup_at = $1, return_at = $2 WHERE id = $3", req.PickupAt, req.ReturnAt, chi.URLParam(r, "bookingID"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (rs *Resource) cancel(w http.ResponseWriter, r *http.Request) {
	_, err := rs.Pool.Exec(r.Context(), "DELETE FROM bookings WHERE id = $1", chi.URLParam(r, "bookingID"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
