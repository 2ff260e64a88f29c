import GatehouseCore
import GatehouseMessaging
import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// A failed `send` on one connection, and whether it failed before the server accepted `MAIL FROM`
/// (so a reused connection may be swapped for a fresh one and the message tried again).
struct SMTPSendFailure: Error {
    var error: DeliveryError
    var beforeMailAccepted: Bool
}

/// One SMTP session, greeted, secured and authenticated, used by one `send` at a time.
final class SMTPConnection: Sendable {
    private let channel: any Channel
    private let failure: SMTPFailureRecord
    private let settings: SMTPSettings
    /// The server's EHLO extensions (after TLS): `SMTPUTF8`, `8BITMIME`, `AUTH`…
    private let extensions: [String: [String]]

    /// Whether the server has not closed it (nor has a timeout or an error).
    var isOpen: Bool { channel.isActive }

    private init(channel: any Channel, failure: SMTPFailureRecord, settings: SMTPSettings, extensions: [String: [String]]) {
        self.failure = failure
        self.channel = channel
        self.settings = settings
        self.extensions = extensions
    }

    /// Connects, reads the greeting, says EHLO, negotiates TLS and authenticates, as the settings say.
    /// - Returns: The connection and one line per step, for `gatehouse doctor`.
    /// - Throws: ``DeliveryError`` naming the step that failed.
    static func open(
        settings: SMTPSettings,
        heloName: String,
        tls: NIOSSLContext,
        group: any EventLoopGroup
    ) async throws(DeliveryError) -> (SMTPConnection, [String]) {
        let hostname = Self.isIPAddress(settings.host) ? nil : settings.host
        let implicitTLS = settings.security == .implicitTLS
        let address = "\(settings.host):\(settings.port)"
        let channel: any Channel
        let failure = SMTPFailureRecord()
        do {
            channel = try await ClientBootstrap(group: group).connectTimeout(settings.connectTimeout)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if implicitTLS { try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: hostname)) }
                        try channel.pipeline.syncOperations.addHandler(SMTPClientHandler(record: failure))
                    }
                }
                .connect(host: settings.host, port: settings.port).get()
        } catch {
            throw Self.mapped(error, step: "connect to \(address)", settings: settings)
        }
        var steps = ["connected to \(address)"]
        do throws(DeliveryError) {
            let session = SMTPConnection(channel: channel, failure: failure, settings: settings, extensions: [:])
            _ = try await session.exchange(nil, step: implicitTLS ? "TLS handshake and greeting" : "greeting", expecting: 220)
            if implicitTLS { steps.append("TLS negotiated (\(await session.tlsVersion()))") }
            var ehlo = try await session.exchange("EHLO \(heloName)", step: "EHLO", expecting: 250)
            if [.startTLSIfOffered, .startTLSRequired].contains(settings.security) {
                if ehlo.extensions["STARTTLS"] != nil {
                    _ = try await session.exchange("STARTTLS", step: "STARTTLS", expecting: 220, startTLS: (tls, hostname))
                    ehlo = try await session.exchange("EHLO \(heloName)", step: "STARTTLS handshake and EHLO", expecting: 250)
                    steps.append("STARTTLS negotiated (\(await session.tlsVersion()))")
                } else if settings.security == .startTLSRequired {
                    throw DeliveryError(.permanent, "STARTTLS: the server does not offer STARTTLS and tls=starttls requires it")
                } else if settings.username != nil {
                    throw DeliveryError(
                        .permanent,
                        "STARTTLS: the server does not offer STARTTLS; refusing to send the credentials in clear (add ?tls=none to allow it)"
                    )
                } else {
                    steps.append("no STARTTLS offered: sending in clear (no credentials to protect)")
                }
            } else if settings.security == .none {
                steps.append("no TLS (tls=none)")
            }
            let connection = SMTPConnection(channel: channel, failure: failure, settings: settings, extensions: ehlo.extensions)
            if let mechanism = try await connection.authenticate() {
                steps.append("authenticated as \(settings.username ?? "") (\(mechanism))")
            }
            return (connection, steps)
        } catch {
            channel.close(promise: nil)
            throw error
        }
    }

    /// AUTH PLAIN or LOGIN (PLAIN preferred) when the settings have credentials.
    /// - Returns: The mechanism used, or `nil` without credentials.
    private func authenticate() async throws(DeliveryError) -> String? {
        guard let user = settings.username, let password = settings.password else { return nil }
        guard let offered = extensions["AUTH"] else {
            throw DeliveryError(.permanent, "AUTH: the server does not offer AUTH, but GATEHOUSE_MAIL has credentials")
        }
        let mechanisms = Set(offered.map { $0.uppercased() })
        if mechanisms.contains("PLAIN") {
            let token = Self.base64(Array(("\0" + user + "\0" + password).utf8))
            _ = try await exchange("AUTH PLAIN " + token, step: "AUTH PLAIN", expecting: 235)
            return "PLAIN"
        }
        guard mechanisms.contains("LOGIN") else {
            throw DeliveryError(.permanent, "AUTH: the server offers neither PLAIN nor LOGIN (\(offered.joined(separator: " ")))")
        }
        _ = try await exchange("AUTH LOGIN", step: "AUTH LOGIN", expecting: 334)
        _ = try await exchange(Self.base64(Array(user.utf8)), step: "AUTH LOGIN (user name)", expecting: 334)
        _ = try await exchange(Self.base64(Array(password.utf8)), step: "AUTH LOGIN (password)", expecting: 235)
        return "LOGIN"
    }

    /// Sends one message: RSET (on a reused connection), MAIL FROM, RCPT TO, DATA and the data.
    /// - Parameters:
    ///   - mail: The message; its addresses have been checked for CR, LF, <, > and spaces.
    ///   - reset: Whether a message was sent on this connection before.
    /// - Throws: ``SMTPSendFailure``.
    func send(_ mail: OutgoingMail, reset: Bool) async throws(SMTPSendFailure) {
        var parameters = ""
        if mail.data.contains(where: { $0 >= 0x80 }), extensions["8BITMIME"] != nil { parameters += " BODY=8BITMIME" }
        if !(mail.sender + mail.recipient).allSatisfy(\.isASCII) {
            guard extensions["SMTPUTF8"] != nil else {
                throw SMTPSendFailure(
                    error: DeliveryError(.permanent, "MAIL FROM: a non-ASCII address and the server does not offer SMTPUTF8"),
                    beforeMailAccepted: false
                )
            }
            parameters += " SMTPUTF8"
        }
        do {
            if reset { _ = try await exchange("RSET", step: "RSET", expecting: 250) }
            _ = try await exchange("MAIL FROM:<\(mail.sender)>\(parameters)", step: "MAIL FROM", expecting: 250)
        } catch {
            throw SMTPSendFailure(error: error, beforeMailAccepted: true)
        }
        do {
            _ = try await exchange("RCPT TO:<\(mail.recipient)>", step: "RCPT TO", expecting: 250, 251)
            _ = try await exchange("DATA", step: "DATA", expecting: 354)
            _ = try await exchange(SMTPDataEncoder.encode(mail.data), timeout: settings.dataTimeout, step: "message data", expecting: 250)
        } catch {
            throw SMTPSendFailure(error: error, beforeMailAccepted: false)
        }
    }

    /// Says QUIT (without waiting long for the answer) and closes.
    func quit() async {
        if isOpen {
            _ = try? await exchange(ByteBuffer(string: "QUIT\r\n"), timeout: min(settings.replyTimeout, .seconds(5)), step: "QUIT", expecting: 221)
        }
        try? await channel.close()
    }

    /// Sends one command (or data) and waits for its reply.
    /// - Throws: ``DeliveryError``: transient for 4xx, a timeout or a lost connection, permanent for 5xx.
    private func exchange(
        _ command: String?,
        step: String,
        expecting codes: Int...,
        startTLS: (NIOSSLContext, String?)? = nil
    ) async throws(DeliveryError) -> SMTPReply {
        try await exchange(command.map { ByteBuffer(string: $0 + "\r\n") }, timeout: settings.replyTimeout, step: step, codes, startTLS: startTLS)
    }

    private func exchange(
        _ bytes: ByteBuffer?,
        timeout: TimeAmount,
        step: String,
        expecting codes: Int...
    ) async throws(DeliveryError) -> SMTPReply {
        try await exchange(bytes, timeout: timeout, step: step, codes, startTLS: nil)
    }

    private func exchange(
        _ bytes: ByteBuffer?,
        timeout: TimeAmount,
        step: String,
        _ codes: [Int],
        startTLS: (NIOSSLContext, String?)?
    ) async throws(DeliveryError) -> SMTPReply {
        let promise = channel.eventLoop.makePromise(of: SMTPReply.self)
        let written = channel.eventLoop.makePromise(of: Void.self)
        let loop = channel.eventLoop
        let failure = self.failure
        written.futureResult.whenFailure { error in
            // The handler fails `promise` with the reason as it sees the connection close (a TLS
            // handshake failure, say). A write failing on that same close, or on a channel that closed
            // before this command, must not win with a vaguer "closed": it waits one turn of the event
            // loop (a second completion is ignored) and then reports the reason the handler recorded.
            loop.execute { promise.fail(failure.value ?? (error is NIOSSLError ? .failed(error) : .closed)) }
        }
        channel.writeAndFlush(SMTPRequest(bytes: bytes, timeout: timeout, startTLS: startTLS, promise: promise), promise: written)
        let reply: SMTPReply
        do {
            reply = try await promise.futureResult.get()
        } catch {
            throw Self.mapped(error, step: step, settings: settings, timeout: timeout)
        }
        guard !codes.contains(reply.code) else { return reply }
        let detail = "\(step): the server replied \(reply)" + (reply.code == 421 ? " and closed the connection" : "")
        throw DeliveryError(reply.isTransient ? .transient : .permanent, detail, code: reply.code)
    }

    private func tlsVersion() async -> String {
        switch try? await channel.nioSSL_tlsVersion().get() {
        case .tlsv13: "TLSv1.3"
        case .tlsv12: "TLSv1.2"
        case .tlsv11: "TLSv1.1"
        case .tlsv1: "TLSv1"
        case nil: "unknown version"
        }
    }

    /// A connection-level failure as a ``DeliveryError``: transient, except a certificate that
    /// cannot be verified (retrying cannot fix it).
    static func mapped(_ error: any Error, step: String, settings: SMTPSettings, timeout: TimeAmount? = nil) -> DeliveryError {
        switch error {
        case let error as DeliveryError: return error
        case SMTPConnectionError.timeout:
            let seconds = Double((timeout ?? settings.replyTimeout).nanoseconds) / 1e9
            return DeliveryError(.transient, "\(step): no reply within \(seconds) s; connection closed")
        case SMTPConnectionError.closed: return DeliveryError(.transient, "\(step): the server closed the connection")
        case SMTPConnectionError.malformed(let reason): return DeliveryError(.transient, "\(step): \(reason)")
        case SMTPConnectionError.bytesAfterStartTLS:
            return DeliveryError(.transient, "\(step): the server sent data after its STARTTLS reply, before TLS; connection closed")
        case SMTPConnectionError.failed(let cause): return mapped(cause, step: step, settings: settings, timeout: timeout)
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return DeliveryError(
                .permanent,
                "\(step): the server's certificate is not valid for \(settings.host); retrying cannot fix this (use the name the certificate carries)"
            )
        case NIOSSLError.handshakeFailed(let cause) where "\(cause)".contains("CERTIFICATE_VERIFY_FAILED"):
            return DeliveryError(
                .permanent,
                "\(step): the server's certificate could not be verified (\(cause)); retrying cannot fix this: "
                    + "for a private CA set GATEHOUSE_SMTP_CA_FILE"
            )
        case let error as NIOSSLError: return DeliveryError(.transient, "\(step): TLS failed: \(error)")
        case ChannelError.connectTimeout:
            return DeliveryError(.transient, "\(step): no connection within \(settings.connectTimeout.nanoseconds / 1_000_000_000) s")
        default: return DeliveryError(.transient, "\(step): \(error)")
        }
    }

    private static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }

    /// Standard base64 (RFC 4648 §4), for AUTH.
    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = bytes[start..<min(start + 3, bytes.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for index in 0..<4 {
                out.append(index <= chunk.count ? alphabet[Int(value >> (18 - 6 * UInt32(index)) & 0x3F)] : UInt8(ascii: "="))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
