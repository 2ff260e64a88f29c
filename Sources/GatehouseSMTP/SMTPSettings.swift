import GatehouseCore
import GatehouseMessaging
import NIOCore
import NIOSSL

/// Where and how to send mail over SMTP, from `GATEHOUSE_MAIL` (and `GATEHOUSE_SMTP_CA_FILE`).
///
/// `smtp://user:password@host:port` (port 587 by default) upgrades with STARTTLS whenever the server
/// offers it and refuses to authenticate in clear; `smtps://…` (port 465) is TLS from the first byte.
/// The user and password are percent-decoded. Query parameters: `tls=none` (never STARTTLS; AUTH in
/// clear allowed, for local catchers), `tls=starttls` (fail unless STARTTLS is offered, even without
/// credentials), `timeout=<seconds>` (each reply; 30 by default, twice that after the message data),
/// `pool=<n>` (connections kept open, 1–32, 4 by default).
public struct SMTPSettings: Sendable {
    /// How the connection is protected.
    public enum Security: String, Sendable, Equatable {
        /// `smtp://`: STARTTLS when offered; without it, no credentials are sent.
        case startTLSIfOffered
        /// `smtp://…?tls=starttls`: STARTTLS or fail.
        case startTLSRequired
        /// `smtps://`: TLS from the first byte.
        case implicitTLS
        /// `smtp://…?tls=none`: never TLS (development catchers).
        case none
    }

    /// The server's host name (or IP address); also the name its certificate must carry.
    public var host: String
    /// The server's port.
    public var port: Int
    /// How the connection is protected.
    public var security: Security
    /// The user name for AUTH, or `nil` to send without authenticating.
    public var username: String?
    /// The password for AUTH.
    public var password: String?
    /// How long to wait for the TCP connection.
    public var connectTimeout: TimeAmount = .seconds(10)
    /// How long to wait for each reply.
    public var replyTimeout: TimeAmount
    /// How long to wait for the reply after the message data.
    public var dataTimeout: TimeAmount
    /// How many connections may be open at once (idle ones are reused).
    public var poolSize: Int
    /// How long an idle connection is kept for reuse.
    public var idleLifetime: TimeAmount = .seconds(60)
    /// Certificates trusted besides the system's roots (`GATEHOUSE_SMTP_CA_FILE`).
    public var additionalTrustRoots: [NIOSSLCertificate]
    /// The URL with the password replaced by `***`: for logs and `gatehouse doctor`.
    public var redacted: String

    /// Parses `GATEHOUSE_MAIL` and reads the CA file.
    /// - Parameters:
    ///   - url: `GATEHOUSE_MAIL`'s value: `smtp://…` or `smtps://…`.
    ///   - caFile: `GATEHOUSE_SMTP_CA_FILE`: a PEM file of certificates added to the system's roots.
    /// - Throws: ``DeliverySettingsError`` naming `GATEHOUSE_MAIL` (unknown scheme or query parameter, missing
    ///   host, bad port, a password without a user) or `GATEHOUSE_SMTP_CA_FILE` (unreadable, no
    ///   certificate); its message never contains the password.
    public init(url: String, caFile: String? = nil) throws {
        func invalid(_ message: String) -> DeliverySettingsError {
            DeliverySettingsError(variable: "GATEHOUSE_MAIL", message + " (expected smtp://user:password@host:port or smtps://…)")
        }
        let defaultPort: Int
        var rest: Substring
        if url.lowercased().hasPrefix("smtp://") {
            (security, defaultPort, rest) = (.startTLSIfOffered, 587, url.dropFirst(7))
        } else if url.lowercased().hasPrefix("smtps://") {
            (security, defaultPort, rest) = (.implicitTLS, 465, url.dropFirst(8))
        } else {
            throw invalid("the URL must start with smtp:// or smtps://")
        }
        let scheme = url.prefix(url.count - rest.count)
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), !rest.contains("#") else {
            throw invalid("the URL has a path or a fragment; nothing may follow host:port but ?parameters")
        }
        var hostPort = rest
        var userInfo: Substring?
        if let at = rest.lastIndex(of: "@") {
            userInfo = rest[..<at]
            hostPort = rest[rest.index(after: at)...]
        }
        if let userInfo {
            let colon = userInfo.firstIndex(of: ":")
            let user = try Self.percentDecoded(colon.map { userInfo[..<$0] } ?? userInfo).get(or: invalid("the user name has a bad %-escape"))
            let password = try colon.map {
                try Self.percentDecoded(userInfo[userInfo.index(after: $0)...]).get(or: invalid("the password has a bad %-escape"))
            }
            guard !user.isEmpty else { throw invalid(password == nil ? "an empty user name before @" : "a password without a user name") }
            guard let password, !password.isEmpty else { throw invalid("the user name \(user) has no password (user:password@host)") }
            (username, self.password) = (user, password)
        } else {
            (username, password) = (nil, nil)
        }
        (host, port) = try Self.hostAndPort(hostPort, defaultPort: defaultPort, invalid: invalid)
        var timeoutSeconds = 30.0
        poolSize = 4
        for parameter in query.split(separator: "&") {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = pair.count == 2 ? String(pair[1]) : ""
            switch (String(pair[0]), value) {
            case ("tls", "none") where security == .startTLSIfOffered: security = .none
            case ("tls", "starttls") where security == .startTLSIfOffered: security = .startTLSRequired
            case ("tls", _): throw invalid("tls=\(value) is not understood (smtp:// takes tls=none or tls=starttls; smtps:// is always TLS)")
            case ("timeout", _):
                guard let seconds = Double(value), seconds > 0, seconds <= 600 else { throw invalid("timeout must be seconds between 0 and 600") }
                timeoutSeconds = seconds
            case ("pool", _):
                guard let size = Int(value), (1...32).contains(size) else { throw invalid("pool must be a number of connections from 1 to 32") }
                poolSize = size
            default: throw invalid("unknown parameter \(pair[0]) (known: tls, timeout, pool)")
            }
        }
        replyTimeout = .nanoseconds(Int64(timeoutSeconds * 1e9))
        dataTimeout = .nanoseconds(Int64(max(timeoutSeconds * 2, 1) * 1e9))
        var shown = String(scheme) + String(hostPort)
        if let userInfo {
            let user = userInfo.firstIndex(of: ":").map { userInfo[..<$0] } ?? userInfo
            shown = String(scheme) + user + ":***@" + hostPort
        }
        redacted = query.isEmpty ? shown : shown + "?" + query
        additionalTrustRoots = try caFile.map(Self.certificates) ?? []
    }

    private static func hostAndPort(
        _ text: Substring,
        defaultPort: Int,
        invalid: (String) -> DeliverySettingsError
    ) throws -> (String, Int) {
        var host = text
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw invalid("an IPv6 address without its closing ]") }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid("unexpected text after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else { throw invalid("the URL has no host") }
        guard host.allSatisfy({ $0.isLetter || $0.isNumber || "-._:".contains($0) }), host.allSatisfy(\.isASCII) else {
            throw invalid("the host has characters a host name cannot have")
        }
        guard let portText else { return (String(host), defaultPort) }
        guard let port = Int(portText), (1...65535).contains(port), portText.allSatisfy(\.isASCII) else {
            throw invalid("the port must be a number from 1 to 65535")
        }
        return (String(host), port)
    }

    private static func certificates(_ path: String) throws -> [NIOSSLCertificate] {
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(path)
        } catch {
            throw DeliverySettingsError(variable: "GATEHOUSE_SMTP_CA_FILE", "cannot read PEM certificates from \(path): \(error)")
        }
        guard !certificates.isEmpty else {
            throw DeliverySettingsError(variable: "GATEHOUSE_SMTP_CA_FILE", "\(path) holds no PEM certificate")
        }
        return certificates
    }

    /// RFC 3986 percent-decoding; `nil` for a bad escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Optional {
    fileprivate func get(or error: @autoclosure () -> DeliverySettingsError) throws -> Wrapped {
        guard let self else { throw error() }
        return self
    }
}
