package main

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

type createPayoutRequest struct {
	MerchantID  string `json:"merchant_id"`
	AmountCents int64  `json:"amount_cents"`
}

func main() {
	r := gin.Default()
	r.POST("/payouts", createPayout)
	_ = r.Run(":8080")
}

func createPayout(c *gin.Context) {
	var req createPayoutRequest
	if err := c.ShouldBindJSON(&req); err != nil {
		c.JSON(http.StatusBadRequest, gin.H{"error": err.Error()})
		return
	}
	c.JSON(http.StatusAccepted, req)
}
