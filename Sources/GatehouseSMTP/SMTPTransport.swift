import GatehouseCore
import GatehouseMessaging
import Logging
import NIOCore
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sends mail to an SMTP server (`GATEHOUSE_MAIL=smtp://…` or `smtps://…`) over a small pool of reused
/// connections: STARTTLS or implicit TLS with the server's certificate verified, AUTH PLAIN or LOGIN,
/// a timeout on connecting and on every reply. Concurrent `send`s each hold their own connection.
/// Logs carry the message id and kind, never an address, the body or the password.
public final class SMTPTransport: MailTransport {
    /// `smtp`.
    public let name = "smtp"
    private let settings: SMTPSettings
    private let heloName: String
    private let logger: Logger
    private let tls: Result<NIOSSLContext, DeliveryError>
    private let pool: SMTPConnectionPool

    /// A transport; it connects on the first `send` or `check`.
    /// - Parameters:
    ///   - settings: The parsed `GATEHOUSE_MAIL` and CA file.
    ///   - heloName: The name given in EHLO; the machine's host name by default.
    ///   - logger: For connection events (never addresses, bodies or the password).
    public init(settings: SMTPSettings, heloName: String? = nil, logger: Logger) {
        self.settings = settings
        self.heloName = Self.validHeloName(heloName) ?? Self.validHeloName(Self.hostName()) ?? "localhost"
        self.logger = logger
        self.pool = SMTPConnectionPool(size: settings.poolSize, idleLifetime: settings.idleLifetime)
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        if !settings.additionalTrustRoots.isEmpty {
            configuration.additionalTrustRoots = [.certificates(settings.additionalTrustRoots)]
        }
        tls = Result { try NIOSSLContext(configuration: configuration) }.mapError { DeliveryError(.permanent, "TLS set-up: \($0)") }
    }

    /// Sends one message, on an idle connection if there is one (RSET first), else on a new one; a reused
    /// connection that fails before `MAIL FROM` is accepted is replaced by a fresh one, once.
    /// - Parameter mail: The message and its envelope.
    /// - Throws: ``DeliveryError``: transient for 4xx replies, timeouts, lost connections and TLS
    ///   failures; permanent for 5xx replies, refused credentials, an unverifiable certificate, an
    ///   envelope address with CR, LF, <, > or spaces, or credentials that would go in clear.
    public func send(_ mail: OutgoingMail) async throws {
        try Self.checkEnvelope(mail)
        let tls = try self.tls.get()
        var metadata: Logger.Metadata = [
            "message.id": "\(mail.id)", "message.kind": "\(mail.kind)", "smtp.server": "\(settings.host):\(settings.port)",
        ]
        var fresh = false
        while true {
            guard let lease = await pool.lease(fresh: fresh) else { throw DeliveryError(.transient, "the SMTP transport is shut down") }
            let connection: SMTPConnection
            let reused: Bool
            switch lease {
            case .reuse(let idle):
                (connection, reused) = (idle, true)
            case .open:
                do {
                    (connection, _) = try await SMTPConnection.open(
                        settings: settings,
                        heloName: heloName,
                        tls: tls,
                        group: .singletonMultiThreadedEventLoopGroup
                    )
                } catch {
                    await pool.discard(nil)
                    throw error
                }
                (reused, metadata["smtp.connection"]) = (false, "new")
                logger.debug("SMTP connection opened", metadata: metadata)
            }
            do {
                try await connection.send(mail, reset: reused)
                await pool.giveBack(connection)
                logger.debug("SMTP message accepted", metadata: metadata)
                return
            } catch {
                if reused, !fresh, error.beforeMailAccepted, error.error.kind == .transient {
                    await pool.discard(connection)
                    metadata["smtp.retry"] = "\(error.error.detail)"
                    logger.debug("SMTP idle connection failed before MAIL FROM; retrying once on a new connection", metadata: metadata)
                    fresh = true
                    continue
                }
                await pool.giveBack(connection)  // closed if no longer open; else RSET before its next message
                throw error.error
            }
        }
    }

    /// Connects, negotiates TLS, authenticates and says QUIT, on a connection of its own.
    /// - Returns: One line per step: "connected to host:port", "STARTTLS negotiated (TLSv1.3)",
    ///   "authenticated as user (PLAIN)".
    /// - Throws: ``DeliveryError`` naming the step that failed.
    public func check() async throws -> [String] {
        let (connection, steps) = try await SMTPConnection.open(
            settings: settings,
            heloName: heloName,
            tls: try tls.get(),
            group: .singletonMultiThreadedEventLoopGroup
        )
        await connection.quit()
        return steps
    }

    /// QUITs and closes every pooled connection; a `send` after this fails (transient).
    public func shutdown() async {
        await pool.shutdown()
    }

    /// Refuses envelope addresses that could inject commands: CR, LF, other control characters, <, >, spaces.
    private static func checkEnvelope(_ mail: OutgoingMail) throws {
        for (role, address) in [("sender", mail.sender), ("recipient", mail.recipient)] {
            let forbidden = address.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F || $0 == "<" || $0 == ">" }
            if forbidden || (role == "recipient" && address.isEmpty) {
                throw DeliveryError(.permanent, "the envelope \(role) is empty or holds CR, LF, <, > or a space: refused")
            }
        }
    }

    private static func validHeloName(_ name: String?) -> String? {
        guard let name, !name.isEmpty, name.count < 256,
            name.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "-.[]:".unicodeScalars.contains($0))
            })
        else { return nil }
        return name
    }

    private static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
