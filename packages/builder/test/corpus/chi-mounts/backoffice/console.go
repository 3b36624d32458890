// Package backoffice is the staff console: the fleet and the staff roster.
package backoffice

import (
	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Console holds the back-office resources.
type Console struct {
	Fleet  *FleetResource
	Roster *RosterResource
}

// NewConsole returns the console on the given pool.
func NewConsole(pool *pgxpool.Pool) (*Console, error) {
	return &Console{
		Fleet:  &FleetResource{Pool: pool},
		Roster: &RosterResource{Pool: pool},
	}, nil
}

// Router provides the back-office routes.
func (c *Console) Router() *chi.Mux {
	r := chi.NewRouter()
	r.Mount("/vehicles", c.Fleet.router())
	r.Mount("/members", c.Roster.router())
	return r
}
