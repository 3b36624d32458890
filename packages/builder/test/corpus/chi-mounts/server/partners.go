package server

import (
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"
)

// partnerRoutes lets partner agencies keep their listing and ask for their commission.
func partnerRoutes() chi.Router {
	r := chi.NewRouter()
	r.Route("/{partnerID}", func(r chi.Router) {
		r.Get("/", showPartner)
		r.Put("/", updatePartner)
		r.Route("/payout-requests", func(r chi.Router) {
			r.Post("/", requestPayout)
		})
	})
	return r
}

type partnerUpdate struct {
	DisplayName  string `json:"display_name"`
	ContactEmail string `json:"contact_email"`
}

func showPartner(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusOK)
}

func updatePartner(w http.ResponseWriter, r *http.Request) {
	var req partnerUpdate
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	_, err := db.Exec(r.Context(), "UPDATE partners SET display_name = $1, contact_email = $2 WHERE id = $3", req.DisplayName, req.ContactEmail, chi.URLParam(r, "partnerID"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

type payoutRequest struct {
	AmountCents int64  `json:"amount_cents"`
	Currency    string `json:"currency"`
}

func requestPayout(w http.ResponseWriter, r *http.Request) {
	var req payoutRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	_, err := db.Exec(r.Context(), "INSERT INTO payout_requests (partner_id, amount_cents, currency) VALUES ($1, $2, $3)", chi.URLParam(r, "partnerID"), req.AmountCents, req.Currency)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}
