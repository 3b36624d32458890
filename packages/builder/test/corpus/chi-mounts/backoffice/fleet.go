package backoffice

import (
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// FleetResource manages the vehicles the desk rents out.
type FleetResource struct {
	Pool *pgxpool.Pool
}

func (rs *FleetResource) router() chi.Router {
	r := chi.NewRouter()
	r.Get("/", rs.list)
	r.Post("/", rs.register)
	r.Route("/{vehicleID}", func(r chi.Router) {
		r.Put("/", rs.update)
		r.Delete("/", rs.retire)
	})
	return r
}

type vehicleRequest struct {
	Plate    string `json:"plate"`
	Model    string `json:"model"`
	Category string `json:"category"`
}

func (rs *FleetResource) list(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusOK)
}

func (rs *FleetResource) register(w http.ResponseWriter, r *http.Request) {
	var req vehicleRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	_, err := rs.Pool.Exec(r.Context(), "INSERT INTO vehicles (plate, model, category) VALUES ($1, $2, $3)", req.Plate, req.Model, req.Category)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

func (rs *FleetResource) update(w http.ResponseWriter, r *http.Request) {
	var req vehicleRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	_, err := rs.Pool.Exec(r.Context(), "UPDATE vehicles SET plate = $1, model = $2, category = $3 WHERE id = $4", req.Plate, req.Model, req.Category, chi.URLParam(r, "vehicleID"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (rs *FleetResource) retire(w http.ResponseWriter, r *http.Request) {
	_, err := rs.Pool.Exec(r.Context(), "DELETE FROM vehicles WHERE id = $1", chi.URLParam(r, "vehicleID"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
