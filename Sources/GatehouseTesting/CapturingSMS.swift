import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging

/// An SMS transport that keeps every text it is given, so tests read codes the way a user would: from
/// the text. Like ``CapturingMailer``, its readers first wait until the attached dispatcher has worked
/// through everything due.
public final class CapturingSMS: SMSTransport {
    public let name = "capture"
    private let texts = LockedBox<[OutgoingSMS]>([])
    private let failure = LockedBox<DeliveryError?>(nil)
    private let dispatcher = LockedBox<(@Sendable () -> DeliveryDispatcher?)?>(nil)

    public init() {}

    /// Readers wait for the dispatcher `source` returns (nil before the app runs) to go idle first.
    public func attach(_ source: @escaping @Sendable () -> DeliveryDispatcher?) {
        dispatcher.withLock { $0 = source }
    }

    public func send(_ sms: OutgoingSMS) async throws {
        if let failure = failure.withLock({ $0 }) { throw failure }
        texts.withLock { $0.append(sms) }
    }

    public func check() async throws -> [String] { ["capturing SMS transport (tests)"] }

    public func shutdown() async {}

    /// Every text delivered, once the dispatcher has settled.
    public var delivered: [OutgoingSMS] {
        get async {
            await dispatcher.withLock { $0 }?()?.waitUntilIdle()
            return texts.withLock { $0 }
        }
    }

    /// The texts delivered to `number` (E.164).
    public func texts(to number: String) async -> [OutgoingSMS] {
        await delivered.filter { $0.to == number }
    }

    /// The 6-digit code in the latest text to `number`.
    public func latestCode(to number: String) async -> String? {
        guard let text = await texts(to: number).last else { return nil }
        return Self.code(in: text.text)
    }

    /// The first run of exactly six digits in `text`.
    public static func code(in text: String) -> String? {
        let pattern = try! NSRegularExpression(pattern: "(?<![0-9])([0-9]{6})(?![0-9])")
        let range = NSRange(text.startIndex..., in: text)
        guard let match = pattern.firstMatch(in: text, range: range), let r = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[r])
    }

    /// Makes every send fail with `error` (nil: succeed again).
    public func setFailure(_ error: DeliveryError?) { failure.withLock { $0 = error } }

    public func clear() { texts.withLock { $0.removeAll() } }
}
