module example.com/payout-service

go 1.22

require (
	github.com/gin-gonic/gin v1.10.0
	github.com/jackc/pgx/v5 v5.6.0
	github.com/go-sql-driver/mysql v1.8.1 // indirect
)
