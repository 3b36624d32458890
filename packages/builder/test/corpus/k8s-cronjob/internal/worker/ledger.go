package worker

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/segmentio/kafka-go"
)

// ConsumeSettlements books every settled payout once per Kafka message.
func ConsumeSettlements(ctx context.Context, db *pgxpool.Pool) error {
	r := kafka.NewReader(kafka.ReaderConfig{Brokers: []string{"kafka:9092"}, GroupID: "payouts", Topic: "payouts.settled"})
	defer r.Close()
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		var seen bool
		_ = db.QueryRow(ctx, "SELECT true FROM processed_messages WHERE message_id = $1", string(m.Key)).Scan(&seen)
		if !seen {
			markSettled(ctx, db, m.Value)
			_, _ = db.Exec(ctx, "INSERT INTO processed_messages (message_id) VALUES ($1)", string(m.Key))
		}
		_ = r.CommitMessages(ctx, m)
	}
}

func markSettled(ctx context.Context, db *pgxpool.Pool, payload []byte) {
	_, _ = db.Exec(ctx, "UPDATE payouts SET status = 'settled' WHERE id = $1", string(payload))
}
