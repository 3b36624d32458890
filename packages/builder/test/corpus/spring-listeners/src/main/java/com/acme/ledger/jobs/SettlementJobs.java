package com.acme.ledger.jobs;

import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
public class SettlementJobs {

    @Scheduled(cron = "0 0 2 * * *", zone = "UTC")
    @SchedulerLock(name = "settleDay", lockAtMostFor = "PT30M")
    public void settleDay() {
        // moves yesterday's captured balance to the payout account
    }

    @Scheduled(fixedDelayString = "${payouts.retry-delay}")
    public void retryFailedPayouts() {
        // re-sends payouts that failed at the bank
    }
}
