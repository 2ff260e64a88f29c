import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// The development SMS transport (`GATEHOUSE_SMS=outbox`, the default): writes each message as a `.txt`
/// file into `<data dir>/sms/`, readable by the owner only, and logs one line saying a message was
/// written — never the number, the text or the code.
///
/// A file holds two lines: `To: <E.164 number>`, then `Text: <the text>` (line breaks in the text kept
/// as they are, after the `Text: ` line's start).
public struct SMSOutboxTransport: SMSTransport {
    /// `outbox`.
    public let name = "outbox"
    /// The outbox directory (mode 0700); each message lands as `<id>-<kind>.txt` (mode 0600).
    public let directory: URL
    let logger: Logger

    /// An outbox at `directory`. Nothing touches the file system here: the server calls
    /// ``createDirectory()`` when it starts.
    /// - Parameters:
    ///   - directory: Where to write messages (`<data dir>/sms`).
    ///   - logger: For the line that says a message was written.
    public init(directory: URL, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    /// Creates the outbox directory (owner-only) if it is missing.
    /// - Throws: The file system's error when the directory cannot be created.
    public func createDirectory() throws {
        try OutboxDirectory(directory).create()
    }

    /// The file's content for `sms`: the number, then the text.
    /// - Parameter sms: The message.
    /// - Returns: `To: <number>\nText: <text>\n`.
    public static func contents(of sms: OutgoingSMS) -> String {
        "To: \(sms.to)\nText: \(sms.text)\n"
    }

    /// Writes the message to a hidden temporary file, then renames it, so a reader of the outbox never
    /// sees half a message. Writing the same message twice (a retry) replaces the file.
    /// - Parameter sms: The message; its id and kind must be safe in a file name.
    /// - Throws: ``DeliveryError``: permanent when the id or kind would leave the directory,
    ///   transient when the file cannot be written.
    public func send(_ sms: OutgoingSMS) async throws {
        let allowed = { (text: String) in
            !text.isEmpty && text.count <= 128 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }
        guard allowed(sms.id), allowed(sms.kind) else {
            throw DeliveryError(.permanent, "an SMS id and kind must be letters, digits, - and _ (at most 128)")
        }
        let name = "\(sms.id)-\(sms.kind).txt"
        try OutboxDirectory(directory).write(Data(Self.contents(of: sms).utf8), as: name)
        logger.info("SMS written to outbox", metadata: ["message.kind": .string(sms.kind), "sms.file": .string(name)])
    }

    /// Checks that the outbox directory exists and is writable.
    /// - Returns: The directory.
    /// - Throws: ``DeliveryError`` (permanent) when it is missing or not writable.
    public func check() async throws -> [String] {
        try OutboxDirectory(directory).check()
        return ["SMS outbox \(directory.path) is writable (messages are written there, not sent)"]
    }

    /// Nothing to close.
    public func shutdown() async {}
}
