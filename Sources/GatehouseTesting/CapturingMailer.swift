import Foundation
import GatehouseCore
import Logging

/// Keeps every message it is given, so tests read codes the way a user would: from the mail.
public final class CapturingMailer: Mailer {
    private let messages = Mutex<[MailMessage]>([])
    private let failing = Mutex(false)

    public init() {}

    public func send(_ message: MailMessage, logger: Logger) async throws {
        if failing.withLock({ $0 }) { throw GatehouseError.internalError(cause: "mail relay down (test)") }
        messages.withLock { $0.append(message) }
        logger.info("mail captured", metadata: ["mail.kind": .string(message.kind)])
    }

    public var all: [MailMessage] { messages.withLock { $0 } }

    public func messages(to address: String) -> [MailMessage] {
        all.filter { $0.to.lowercased() == address.lowercased() }
    }

    /// The 6-digit code in the latest message of `kind` to `address`.
    public func latestCode(to address: String, kind: String) -> String? {
        guard let message = messages(to: address).last(where: { $0.kind == kind }) else { return nil }
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
