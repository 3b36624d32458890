package worker

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/redis/go-redis/v9"
	"github.com/robfig/cron/v3"
)

// Subscribe sends one e-mail per payout.failed event, guarded by a Redis claim.
func Subscribe(nc *nats.Conn, rdb *redis.Client) (*nats.Subscription, error) {
	return nc.QueueSubscribe("payouts.failed", "notifier", func(m *nats.Msg) {
		ok, _ := rdb.SetNX(context.Background(), "notified:"+m.Header.Get("Nats-Msg-Id"), 1, 24*time.Hour).Result()
		if ok {
			sendFailureEmail(m.Data)
		}
	})
}

// Schedule registers the in-process jobs.
func Schedule(c *cron.Cron) {
	_, _ = c.AddFunc("0 */6 * * *", ExpireHolds)
}

func ExpireHolds() {}

func sendFailureEmail(payload []byte) {}
