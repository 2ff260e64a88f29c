import Foundation
import GatehouseCore
import GatehouseMessaging
import GatehouseTesting
import HummingbirdTesting
import Testing

/// Operating mail delivery (issue 13 point 5): /metrics shows the queue, /ready ignores mail (sign-in
/// must keep working when only mail is failing), and the request never waits for the mail server.
@Suite("Mail delivery: operations", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct MailOperationsTests {
    @Test func failingMailKeepsReadyAndShowsInMetrics() async throws {
        let app = try await TestApp.make()
        try await app.router { client in
            app.mailer.setFailing(true)
            let signUp = try await client.send(.post, "/auth/signup", json: ["email": "ops@example.com", "password": "correct horse 9"])
            #expect(signUp.status == .created, "the answer does not depend on the mail server")
            #expect(await app.mailer.all.isEmpty)
            #expect(try await client.send(.get, "/ready").status == .ok, "only mail is failing: still ready")
            var metrics = try await client.send(.get, "/metrics").bodyText
            #expect(metrics.contains(#"gatehouse_mail_retried_total{kind="confirm_signup"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"gatehouse_mail_queue_depth{state="queued"} 1"#))

            app.mailer.setFailing(false)
            app.clock.advance(by: 40)
            #expect(await app.mailer.latestCode(to: "ops@example.com", kind: "confirm_signup") != nil, "delivered on the retry")
            metrics = try await client.send(.get, "/metrics").bodyText
            #expect(metrics.contains(#"gatehouse_mail_sent_total{kind="confirm_signup"} 1"#))
            #expect(metrics.contains(#"gatehouse_mail_queue_depth{state="queued"} 0"#))
        }
    }

    @Test func aPermanentFailureIsDeadLetteredAndCounted() async throws {
        let app = try await TestApp.make()
        try await app.router { client in
            app.mailer.setFailure(DeliveryError(.permanent, "550 5.1.1 no such user", code: 550))
            _ = try await client.send(.post, "/auth/signup", json: ["email": "gone@example.com", "password": "correct horse 9"])
            #expect(await app.mailer.all.isEmpty)
            let metrics = try await client.send(.get, "/metrics").bodyText
            #expect(metrics.contains(#"gatehouse_mail_dead_total{kind="confirm_signup"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"gatehouse_mail_queue_depth{state="dead"} 1"#))
            let counts = try await app.built.store.read { try await $0.messageQueueCounts() }
            #expect(counts.dead == 1 && counts.queued == 0)
        }
    }
}
