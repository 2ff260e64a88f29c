import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ClientInfo {
    /// The client's address made coarse for a user's session list, which is all that is kept of it
    /// with a session: an IPv4 address as its /24 (`203.0.113.0/24`), an IPv6 address as its /48
    /// (`2001:db8:1234::/48`, the size of one site's assignment), an IPv4-mapped IPv6 address as its
    /// IPv4 /24. Enough to tell "home" from "another country", not enough to find a household.
    /// `nil` for anything that does not parse as an IP address (`unknown`, a Unix socket).
    public var coarseAddress: String? {
        Self.coarseAddress(for: address)
    }

    /// See ``coarseAddress``.
    /// - Parameter address: An IP address in text form (IPv6 may carry a `%zone`).
    /// - Returns: The /24 or /48 prefix in CIDR form, or `nil`.
    static func coarseAddress(for address: String) -> String? {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            let octets = withUnsafeBytes(of: &v4) { Array($0) }
            return "\(octets[0]).\(octets[1]).\(octets[2]).0/24"
        }
        let withoutZone = address.split(separator: "%", maxSplits: 1).first.map(String.init) ?? address
        var bytes = [UInt8](repeating: 0, count: 16)
        guard withoutZone.utf8.contains(UInt8(ascii: ":")), inet_pton(AF_INET6, withoutZone, &bytes) == 1 else { return nil }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return "\(bytes[12]).\(bytes[13]).\(bytes[14]).0/24"
        }
        let groups = stride(from: 0, to: 6, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        // 2001:db8:0::/48 reads better as 2001:db8::/48.
        var trimmed = groups
        while trimmed.count > 1, trimmed.last == "0" { trimmed.removeLast() }
        return (trimmed == ["0"] ? "" : trimmed.joined(separator: ":")) + "::/48"
    }
}
