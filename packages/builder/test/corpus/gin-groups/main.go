// Corpus fixture: gin groups passed into a function in another package.
package main

import (
	"github.com/gin-gonic/gin"

	"example.com/payout-service/payouts"
)

func main() {
	engine := gin.Default()
	api := engine.Group("/api")
	payouts.Register(api.Group("/payouts"))
	engine.Run(":8080")
}
