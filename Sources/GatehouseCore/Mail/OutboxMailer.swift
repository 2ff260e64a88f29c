import Foundation
import GatehouseInfrastructure
import Logging

/// The development mailer: writes each message as an RFC 5322 `.eml` file into a directory
/// (`<data dir>/outbox/`), readable by the owner only, and logs one line saying a message was
/// written — never the recipient or the code.
public struct OutboxMailer: Mailer {
    /// The outbox directory (mode 0700); each message lands as `<epoch>-<random>-<kind>.eml` (mode 0600).
    public let directory: URL
    let from: String
    let clock: any TimeSource
    let random: any RandomSource

    /// An outbox at `directory`. Nothing touches the file system here: the server calls
    /// ``createDirectory()`` when it starts.
    /// - Parameters:
    ///   - directory: Where to write messages.
    ///   - from: The `From:` header value.
    ///   - clock: Dates the messages and names the files.
    ///   - random: Makes the file names (and `Message-ID`s) unique.
    public init(directory: URL, from: String, clock: any TimeSource, random: any RandomSource) {
        self.directory = directory
        self.from = from
        self.clock = clock
        self.random = random
    }

    /// Creates the outbox directory (owner-only) if it is missing.
    /// - Throws: The file system's error when the directory cannot be created.
    public func createDirectory() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Writes `message` as an `.eml` file: to a hidden temporary file first, then renamed, so a reader of
    /// the outbox never sees half a message.
    /// - Parameters:
    ///   - message: The message to write.
    ///   - logger: The request's logger; the line names the kind and file, never the recipient or the code.
    /// - Throws: `internal_error` when the file cannot be created; the file system's error when the rename fails.
    public func send(_ message: MailMessage, logger: Logger) async throws {
        let now = clock.now()
        let id = "\(now.epochSeconds)-\(Base64URL.encode(random.bytes(9)))"
        let text = try RFC5322Message.render(message, from: from, date: now, messageID: "\(id)@gatehouse")
        let name = "\(id)-\(message.kind).eml"
        let temporary = directory.appendingPathComponent(".\(name).tmp")
        let target = directory.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw GatehouseError.internalError(cause: "could not write to the outbox at \(directory.path)")
        }
        try FileManager.default.moveItem(at: temporary, to: target)
        logger.info("mail written to outbox", metadata: ["mail.kind": .string(message.kind), "mail.file": .string(name)])
    }
}
