import Foundation
import GatehouseInfrastructure

/// Claims an app adds to its tokens (the custom-claims hook's answer), already kept away from the
/// names the token service writes itself: a value of this type can never override `sub`, `iss`,
/// `exp`, `token_use`, `origin_jti` or any other reserved name (``reservedNames``, and every name
/// starting with `cognito:`), because its only initialiser drops them.
public struct ExtraClaims: Sendable, Equatable {
    /// Claims for the access token, by name.
    package private(set) var access: [String: JSONValue]
    /// Claims for the ID token, by name.
    package private(set) var id: [String: JSONValue]

    /// No extra claims.
    public static let none = ExtraClaims(checkedAccess: [:], checkedID: [:])

    private init(checkedAccess: [String: JSONValue], checkedID: [String: JSONValue]) {
        self.access = checkedAccess
        self.id = checkedID
    }

    /// The names the token service writes, or that a relying party reads as the token's identity,
    /// lifetime or binding; a hook's claim by one of these names is dropped.
    public static let reservedNames: Set<String> = [
        "sub", "iss", "aud", "azp", "client_id", "exp", "iat", "nbf", "auth_time", "jti", "origin_jti", "event_id", "token_use",
        "scope", "username", "email", "email_verified", "phone_number", "phone_number_verified", "name", "amr", "acr", "nonce",
        "at_hash", "c_hash", "sid", "typ", "cnf",
    ]

    /// Whether a hook may set a claim called `name`: not reserved, not `cognito:`-prefixed, 1 to 128
    /// bytes of printable ASCII.
    /// - Parameter name: The claim's name.
    /// - Returns: `true` when the name is free.
    public static func isAllowed(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 128, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return false }
        return !reservedNames.contains(name) && !name.lowercased().hasPrefix("cognito:")
    }

    /// Keeps the allowed names of `access` and `id` and reports the others.
    /// - Parameters:
    ///   - access: The claims asked for the access token.
    ///   - id: The claims asked for the ID token.
    /// - Returns: The allowed claims, and the sorted names dropped (once each).
    package static func filtering(access: [String: JSONValue], id: [String: JSONValue]) -> (claims: ExtraClaims, dropped: [String]) {
        var dropped = Set<String>()
        func keep(_ claims: [String: JSONValue]) -> [String: JSONValue] {
            claims.filter { name, _ in
                if isAllowed(name) { return true }
                dropped.insert(name)
                return false
            }
        }
        return (ExtraClaims(checkedAccess: keep(access), checkedID: keep(id)), dropped.sorted())
    }

    /// Whether there is nothing to add.
    public var isEmpty: Bool { access.isEmpty && id.isEmpty }
}
