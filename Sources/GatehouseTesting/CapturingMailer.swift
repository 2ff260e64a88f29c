import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import Logging

/// A mail transport that keeps every message it is given, so tests read codes the way a user would:
/// from the mail.
///
/// Requests only queue mail (in the store); the readers here first wait until the delivery service
/// they are attached to (``attach(_:)``) has worked through everything due, so a test reads the mail
/// of the request it just made without sleeping.
public final class CapturingMailer: MailTransport {
    public let name = "capture"
    private let messages = LockedBox<[OutgoingMail]>([])
    private let failure = LockedBox<DeliveryError?>(nil)
    private let dispatcher = LockedBox<(@Sendable () -> DeliveryDispatcher?)?>(nil)

    public init() {}

    /// Readers wait for the dispatcher `source` returns (nil before the app runs) to go idle first.
    public func attach(_ source: @escaping @Sendable () -> DeliveryDispatcher?) {
        dispatcher.withLock { $0 = source }
    }

    /// Waits until the attached dispatcher has delivered (or failed) every message due so far.
    public func settle() async {
        await dispatcher.withLock { $0 }?()?.waitUntilIdle()
    }

    public func send(_ mail: OutgoingMail) async throws {
        if let failure = failure.withLock({ $0 }) { throw failure }
        messages.withLock { $0.append(mail) }
    }

    public func check() async throws -> [String] { ["capturing transport (tests)"] }

    public func shutdown() async {}

    /// Every message delivered, once the dispatcher has settled.
    public var all: [MailMessage] {
        get async { await delivered.map(\.message) }
    }

    /// Every message delivered with its envelope and raw text, once the dispatcher has settled.
    public var delivered: [OutgoingMail] {
        get async {
            await settle()
            return messages.withLock { $0 }
        }
    }

    public func messages(to address: String) async -> [MailMessage] {
        await all.filter { $0.to.lowercased() == address.lowercased() }
    }

    /// The 6-digit code in the latest message of `kind` to `address`.
    public func latestCode(to address: String, kind: String) async -> String? {
        // The queue's ids are time-ordered; delivery order is not (a batch goes out concurrently).
        let matching = await delivered.filter { $0.message.to.lowercased() == address.lowercased() && $0.message.kind == kind }
        guard let message = matching.max(by: { $0.id < $1.id })?.message else { return nil }
        return Self.code(in: message.body)
    }

    public static func code(in text: String) -> String? {
        let pattern = try! NSRegularExpression(pattern: "(?m)^\\s+(\\d{6})\\s*$")
        let range = NSRange(text.startIndex..., in: text)
        guard let match = pattern.firstMatch(in: text, range: range), let r = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[r])
    }

    /// Makes every send fail with a transient error (a relay that is down) until set back to false.
    public func setFailing(_ value: Bool) {
        failure.withLock { $0 = value ? DeliveryError(.transient, "mail relay down (test)", code: 421) : nil }
    }

    /// Makes every send fail with `error` (nil: succeed again).
    public func setFailure(_ error: DeliveryError?) { failure.withLock { $0 = error } }

    public func clear() { messages.withLock { $0.removeAll() } }
}
