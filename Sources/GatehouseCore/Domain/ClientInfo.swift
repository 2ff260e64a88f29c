import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a request came from, for rate limits, logs, a user's session list and the audit log.
public struct ClientInfo: Sendable, Equatable {
    /// The longest `User-Agent` kept; anything past it is cut (a session list needs a few words, not a kilobyte).
    public static let maximumUserAgentLength = 256

    /// The client's address (the TCP peer, or the forwarded address from a trusted proxy).
    public var address: String
    /// The request's `User-Agent`, cut to ``maximumUserAgentLength`` characters, or `nil` when it sent none.
    public var userAgent: String?
    /// The request id (`X-Request-Id`), or `nil` outside a request (the CLI, background jobs).
    public var requestID: String?

    /// A client seen at `address`.
    /// - Parameters:
    ///   - address: The peer address, or the forwarded one when the peer is a trusted proxy; IP text form.
    ///   - userAgent: The `User-Agent` header as sent; kept to its first ``maximumUserAgentLength`` characters.
    ///   - requestID: The request id, for the audit log.
    public init(address: String, userAgent: String? = nil, requestID: String? = nil) {
        self.address = address
        self.userAgent = userAgent.map { String($0.prefix(Self.maximumUserAgentLength)) }
        self.requestID = requestID
    }

    /// What per-client rate limits count under: an IPv4 address as it is, an IPv6 address by its
    /// /64 prefix (one subscriber is usually handed a whole /64, so counting single IPv6 addresses
    /// would give one client 2^64 buckets), an IPv4-mapped IPv6 address as its IPv4 address, and
    /// anything unparseable as it is.
    var rateLimitSubject: String {
        Self.rateLimitSubject(for: address)
    }

    /// See ``rateLimitSubject``.
    /// - Parameter address: An IP address in text form (IPv6 may carry a `%zone`).
    /// - Returns: The address, or `xxxx:xxxx:xxxx:xxxx::/64` for an IPv6 address.
    static func rateLimitSubject(for address: String) -> String {
        guard address.utf8.contains(UInt8(ascii: ":")) else { return address }
        let withoutZone = address.split(separator: "%", maxSplits: 1).first.map(String.init) ?? address
        var bytes = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, withoutZone, &bytes) == 1 else { return address }
        // ::ffff:a.b.c.d is an IPv4 client seen through a dual-stack socket.
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return "\(bytes[12]).\(bytes[13]).\(bytes[14]).\(bytes[15])"
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
