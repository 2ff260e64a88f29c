import Foundation

/// The shape a webhook URL must have: `https://`, or `http://` to a loopback host; a host; no user
/// name or password; no fragment; at most 2,000 characters. Where the host points is the
/// ``WebhookAddressPolicy``'s question.
public enum WebhookURL {
    /// The longest URL accepted.
    public static let maximumLength = 2_000

    /// Checks a URL's shape.
    /// - Parameter string: The operator's URL.
    /// - Returns: The URL and its host (brackets removed from an IPv6 literal).
    /// - Throws: `invalid_request` saying what is wrong.
    public static func validate(_ string: String) throws -> (url: URL, host: String) {
        guard string.utf8.count <= maximumLength, let components = URLComponents(string: string), let url = components.url,
            let scheme = components.scheme?.lowercased(), let rawHost = components.host, !rawHost.isEmpty
        else {
            throw GatehouseError.invalidRequest("A webhook URL is an absolute https:// URL of at most \(maximumLength) characters.")
        }
        guard components.user == nil, components.password == nil, components.fragment == nil else {
            throw GatehouseError.invalidRequest("A webhook URL carries no user name, password or fragment.")
        }
        let host = rawHost.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        switch scheme {
        case "https": break
        case "http" where isLoopbackName(host): break
        default: throw GatehouseError.invalidRequest("A webhook URL must use https:// (http:// only to a loopback host).")
        }
        return (url, host)
    }

    /// `localhost`, a dotted `127.x.x.x` literal or `::1` (nothing a DNS answer could point elsewhere but `localhost`,
    /// which the address check still resolves).
    /// - Parameter host: A host without brackets.
    /// - Returns: Whether it names this machine.
    public static func isLoopbackName(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        let dottedLoopback =
            parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { part in (1...3).contains(part.count) && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) }
        return host == "localhost" || host == "::1" || dottedLoopback
    }
}
