import Foundation
import GatehouseCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where webhooks may go: a host is resolved (`getaddrinfo`, off the cooperative pool) and refused when
/// any of its addresses is not public — loopback, private (RFC 1918, unique-local), link-local (the
/// cloud metadata address among them), carrier-grade NAT, unspecified, multicast, reserved, or an
/// IPv4-mapped form of one — unless `GATEHOUSE_WEBHOOK_ALLOW_PRIVATE` allows them. The channel connects
/// to the address checked here (``resolveChecked(host:)``), so a name that changes between the check
/// and the connection (DNS rebinding) cannot reach a refused address.
public struct WebhookAddresses: WebhookAddressPolicy {
    /// Whether non-public addresses are allowed (tests, local development).
    public let allowPrivate: Bool

    /// A policy.
    /// - Parameter allowPrivate: Allow non-public addresses.
    public init(allowPrivate: Bool) {
        self.allowPrivate = allowPrivate
    }

    /// Checks `host` (``WebhookAddressPolicy``).
    /// - Parameter host: A name or an address literal.
    /// - Throws: `invalid_request` when it does not resolve or resolves to a refused address.
    public func check(host: String) async throws {
        _ = try await resolveChecked(host: host)
    }

    /// Resolves `host` and checks every address.
    /// - Parameter host: A name or an address literal.
    /// - Returns: The first address, numeric, to connect to.
    /// - Throws: `invalid_request` when it does not resolve or any address is refused.
    public func resolveChecked(host: String) async throws -> String {
        let addresses = try await Self.resolve(host)
        guard let first = addresses.first else {
            throw GatehouseError.invalidRequest("The webhook host \(host.prefix(100)) does not resolve.")
        }
        if !allowPrivate, let refused = addresses.first(where: { !Self.isPublic($0) }) {
            throw GatehouseError.invalidRequest(
                "The webhook host \(host.prefix(100)) resolves to \(refused), which is not a public address (set GATEHOUSE_WEBHOOK_ALLOW_PRIVATE=true to allow it)."
            )
        }
        return first
    }

    /// Whether a numeric address is public.
    /// - Parameter address: An IPv4 or IPv6 address, numeric.
    /// - Returns: `false` for every non-public range (and for anything that does not parse).
    public static func isPublic(_ address: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            return isPublicV4(withUnsafeBytes(of: &v4.s_addr) { Array($0) })
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return false }
        let b = withUnsafeBytes(of: &v6) { Array($0) }
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF { return isPublicV4(Array(b[12..<16])) }  // ::ffff:a.b.c.d
        if b[0..<12].allSatisfy({ $0 == 0 }) { return false }  // ::, ::1, IPv4-compatible
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B { return isPublicV4(Array(b[12..<16])) }  // 64:ff9b::/96 NAT64
        if b[0] & 0xFE == 0xFC { return false }  // fc00::/7 unique local
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return false }  // fe80::/10 link-local
        if b[0] == 0xFE && b[1] & 0xC0 == 0xC0 { return false }  // fec0::/10 site-local (deprecated)
        if b[0] == 0xFF { return false }  // multicast
        if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8 { return false }  // 2001:db8::/32 documentation
        return true
    }

    static func isPublicV4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1]) {
        case (0, _), (10, _), (127, _): false  // this network, private, loopback
        case (100, 64...127): false  // carrier-grade NAT
        case (169, 254): false  // link-local (cloud metadata)
        case (172, 16...31): false  // private
        case (192, 168): false  // private
        case (192, 0) where b[2] == 0 || b[2] == 2: false  // IETF protocol assignments, TEST-NET-1
        case (198, 18...19): false  // benchmarking
        case (198, 51) where b[2] == 100: false  // TEST-NET-2
        case (203, 0) where b[2] == 113: false  // TEST-NET-3
        case (224...255, _): false  // multicast, reserved, broadcast
        default: true
        }
    }

    /// Every address of `host`, numeric, in the resolver's order.
    static func resolve(_ host: String) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                var hints = addrinfo()
                hints.ai_family = AF_UNSPEC
                #if canImport(Glibc)
                hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
                #else
                hints.ai_socktype = SOCK_STREAM
                #endif
                var list: UnsafeMutablePointer<addrinfo>?
                guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else {
                    continuation.resume(throwing: GatehouseError.invalidRequest("The webhook host \(host.prefix(100)) does not resolve."))
                    return
                }
                defer { freeaddrinfo(first) }
                var addresses: [String] = []
                var cursor: UnsafeMutablePointer<addrinfo>? = first
                while let entry = cursor {
                    var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                    if getnameinfo(entry.pointee.ai_addr, entry.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 {
                        let address = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                        if !addresses.contains(address) { addresses.append(address) }
                    }
                    cursor = entry.pointee.ai_next
                }
                continuation.resume(returning: addresses)
            }
        }
    }
}
