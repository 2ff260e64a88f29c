import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// The development transport (`GATEHOUSE_MAIL=outbox`, the default): writes each message as an
/// RFC 5322 `.eml` file into `<data dir>/outbox/`, readable by the owner only, and logs one line saying
/// a message was written — never the recipient or the code.
public struct OutboxTransport: MailTransport {
    /// `outbox`.
    public let name = "outbox"
    /// The outbox directory (mode 0700); each message lands as `<id>-<kind>.eml` (mode 0600).
    public let directory: URL
    let logger: Logger

    /// An outbox at `directory`. Nothing touches the file system here: the server calls
    /// ``createDirectory()`` when it starts.
    /// - Parameters:
    ///   - directory: Where to write messages.
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

    /// Writes the message to a hidden temporary file, then renames it, so a reader of the outbox never
    /// sees half a message. Writing the same message twice (a retry after a crash) replaces the file.
    /// - Parameter mail: The message.
    /// - Throws: ``DeliveryError`` (transient) when the file cannot be written.
    public func send(_ mail: OutgoingMail) async throws {
        let name = "\(mail.id)-\(mail.kind).eml"
        try OutboxDirectory(directory).write(Data(mail.data), as: name)
        logger.info("mail written to outbox", metadata: ["message.kind": .string(mail.kind), "mail.file": .string(name)])
    }

    /// Checks that the outbox directory exists and is writable.
    /// - Returns: The directory.
    /// - Throws: ``DeliveryError`` when it is not writable.
    public func check() async throws -> [String] {
        try OutboxDirectory(directory).check()
        return ["outbox \(directory.path) is writable (messages are written there, not sent)"]
    }

    /// Nothing to close.
    public func shutdown() async {}
}
