package payouts

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

type payoutRequest struct {
	AccountID   string `json:"account_id" binding:"required"`
	AmountCents int64  `json:"amount_cents" binding:"required"`
	Currency    string `json:"currency"`
}

func Register(group *gin.RouterGroup) {
	group.POST("", createPayout)
	group.DELETE("/:id", cancelPayout)
}

func createPayout(c *gin.Context) {
	var req payoutRequest
	if err := c.ShouldBindJSON(&req); err != nil {
		c.JSON(http.StatusBadRequest, gin.H{"error": err.Error()})
		return
	}
	insertPayout(req.AccountID, req.AmountCents, req.Currency)
	c.JSON(http.StatusCreated, req)
}

func cancelPayout(c *gin.Context) {
	deletePayout(c.Param("id"))
	c.Status(http.StatusNoContent)
}
