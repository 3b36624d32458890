// Per-project data: actions, policies, problem types and the store's statements. The builder
// renders it as project.json and this file embeds it, so no Go source differs between projects.
package idempotency

import (
	_ "embed"
	"encoding/json"
)

//go:embed project.json
var projectJSON []byte

// ActionData is one protected action: its fingerprint signature and its policy.
type ActionData struct {
	Method  string   `json:"method"`
	Path    string   `json:"path"`
	Fields  []string `json:"fields"`
	LeaseMs int64    `json:"leaseMs"`
	TTLMs   int64    `json:"ttlMs"`
}

// ProblemData is one row of the runtime's problem table.
type ProblemData struct {
	Status int    `json:"status"`
	Title  string `json:"title"`
}

// StatementData is one SQL statement and the names of its parameters, in placeholder order.
type StatementData struct {
	Text   string   `json:"text"`
	Params []string `json:"params"`
}

// SampleData feeds the generated tests: two bodies of the first action and the runtime's fingerprint.
type SampleData struct {
	Action      string          `json:"action"`
	Body        json.RawMessage `json:"body"`
	OtherBody   json.RawMessage `json:"otherBody"`
	Fingerprint string          `json:"fingerprint"`
}

// ProviderKeyLimits are the runtime's provider key lengths (Stripe, Adyen key, Adyen reference) and
// Braintree's orderId limit, the builder's (the runtime has no Braintree derivation).
type ProviderKeyLimits struct {
	Stripe           int `json:"stripe"`
	AdyenKey         int `json:"adyenKey"`
	AdyenReference   int `json:"adyenReference"`
	BraintreeOrderID int `json:"braintreeOrderId"`
}

// ProjectData is project.json.
type ProjectData struct {
	Project         string                   `json:"project"`
	Store           string                   `json:"store"`
	Table           string                   `json:"table"`
	KeyPrefix       string                   `json:"keyPrefix"`
	KeepExpiredMs   int64                    `json:"keepExpiredMs"`
	ProblemTypeBase string                   `json:"problemTypeBase"`
	Problems        map[string]ProblemData   `json:"problems"`
	Actions         map[string]ActionData    `json:"actions"`
	PaypalNamespace string                   `json:"paypalNamespace"`
	ProviderKeys    ProviderKeyLimits        `json:"providerKeyLimits"`
	Statements      map[string]StatementData `json:"statements"`
	Scripts         map[string]string        `json:"scripts"`
	Sample          SampleData               `json:"sample"`
}

// Project is this service's data, parsed once at start-up.
var Project = mustLoad(projectJSON)

func mustLoad(data []byte) ProjectData {
	var project ProjectData
	if err := json.Unmarshal(data, &project); err != nil {
		panic("idempotency: project.json is not valid: " + err.Error())
	}
	return project
}
