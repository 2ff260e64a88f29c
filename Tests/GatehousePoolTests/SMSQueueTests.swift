import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import GatehouseStore
import GatehouseTesting
import Logging
import Testing

/// Texts in the durable queue beside mail: a text whose code expired while it waited is never sent
/// (it would cost money and redeem nothing), and a dispatcher without the SMS channel (an older
/// instance during a rolling upgrade) leaves text rows queued for one that has it.
@Suite("Delivery queue: texts beside mail", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SMSQueueTests {
    /// One app per database for the tests below, reset before each (``PoolHarness/shared()``).
    static let apps = PoolHarness.shared()

    @Test func aTextWhoseCodeExpiredInTheQueueIsNotSentEvenOnItsFirstAttempt() async throws {
        try await Self.apps.with { h in
            _ = try await PhoneSignInTests.send(h)
            // Delivery is down for longer than the code lives; nothing was attempted yet.
            h.clock.advance(by: 601)
            #expect(await h.texts.delivered.isEmpty)
            let counts = try await h.store.read { try await $0.messageQueueCounts() }
            #expect(counts.queued == 0 && counts.dead == 1)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aDispatcherWithoutTheSMSChannelLeavesTextsQueued(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            _ = try await PhoneSignInTests.send(h)
            let mailOnly = try MailQueueTests.dispatcher(h, transport: CapturingMailer())
            #expect(try await mailOnly.deliverDue() == 0)
            #expect(try await h.store.read { try await $0.messageQueueCounts() }.queued == 1)
            // The instance that has the channel sends it.
            #expect(try await PhoneSignInTests.code(h).count == 6)
        }
    }
}
