package backoffice

import (
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// RosterResource manages who works at the desk.
type RosterResource struct {
	Pool *pgxpool.Pool
}

func (rs *RosterResource) router() chi.Router {
	r := chi.NewRouter()
	r.Post("/", rs.invite)
	r.Delete("/{memberID}", rs.remove)
	return r
}

type inviteRequest struct {
	Email string `json:"email"`
	Role  string `json:"role"`
}

func (rs *RosterResource) invite(w http.ResponseWriter, r *http.Request) {
	var req inviteRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	_, err := rs.Pool.Exec(r.Context(), "INSERT INTO staff_members (email, role) VALUES ($1, $2)", req.Email, req.Role)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

func (rs *RosterResource) remove(w http.ResponseWriter, r *http.Request) {
	_, err := rs.Pool.Exec(r.Context(), "DELETE FROM staff_members WHERE id = $1", chi.URLParam(r, "memberID"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
