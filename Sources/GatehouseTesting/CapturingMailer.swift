import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// Keeps every message it is given, so tests read codes the way a user would: from the mail.
///
/// Requests only queue mail (``MailQueue``); the readers here first wait until the queue they are
/// attached to (``attach(_:)``) has delivered everything queued so far, so a test reads the mail of
/// the request it just made without sleeping.
public final class CapturingMailer: Mailer {
    private let messages = Mutex<[MailMessage]>([])
    private let failing = Mutex(false)
    private let queue = Mutex<MailQueue?>(nil)

    public init() {}

    /// Readers wait for `queue` to deliver what it holds before they read.
    public func attach(_ queue: MailQueue) {
        self.queue.withLock { $0 = queue }
    }

    /// Waits until the attached queue has delivered every message queued so far.
    public func settle() async {
        await queue.withLock { $0 }?.waitUntilIdle()
    }

    public func send(_ message: MailMessage, logger: Logger) async throws {
        if failing.withLock({ $0 }) { throw GatehouseError.internalError(cause: "mail relay down (test)") }
        messages.withLock { $0.append(message) }
        logger.info("mail captured", metadata: ["mail.kind": .string(message.kind)])
    }

    /// Every message delivered, once the queue has settled.
    public var all: [MailMessage] {
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
        guard let message = await messages(to: address).last(where: { $0.kind == kind }) else { return nil }
        return Self.code(in: message.body)
    }

    public static func code(in text: String) -> String? {
        let pattern = try! NSRegularExpression(pattern: "(?m)^\\s+(\\d{6})\\s*$")
        let range = NSRange(text.startIndex..., in: text)
        guard let match = pattern.firstMatch(in: text, range: range), let r = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[r])
    }

    public func setFailing(_ value: Bool) { failing.withLock { $0 = value } }
    public func clear() { messages.withLock { $0.removeAll() } }
}
