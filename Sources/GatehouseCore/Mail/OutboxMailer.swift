import Foundation
import GatehouseInfrastructure
import Logging

/// The development mailer: writes each message as an RFC 5322 `.eml` file into a directory
/// (`<data dir>/outbox/`), readable by the owner only, and logs one line saying a message was
/// written — never the recipient or the code.
public struct OutboxMailer: Mailer {
    public let directory: URL
    let from: String
    let clock: any TimeSource
    let random: any RandomSource

    public init(directory: URL, from: String, clock: any TimeSource, random: any RandomSource) throws {
        self.directory = directory
        self.from = from
        self.clock = clock
        self.random = random
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    public func send(_ message: MailMessage, logger: Logger) async throws {
        let now = clock.now()
        let id = "\(now.epochSeconds)-\(Base64URL.encode(random.bytes(9)))"
        let text = RFC5322Message.render(message, from: from, date: now, messageID: "\(id)@gatehouse")
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
