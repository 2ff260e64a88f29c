import GatehouseCore
import HTTPTypes
import Hummingbird

/// What the routes need from the rest of the app.
struct RouteDependencies: Sendable {
    let passwords: PasswordAuthentication
    let sessions: Sessions
    let social: SocialSignIn
    let accounts: Accounts
    let profiles: Profiles
    let metrics: GatehouseMetrics
    let maxBodySize: Int
    let discovery: DiscoveryDocuments

    func json(_ request: Request, _ context: GatehouseRequestContext) async throws -> JSONObjectReader {
        try await JSONBody.read(request, context: context, limit: maxBodySize)
    }

    /// The token of `Bearer <token>` (scheme case-insensitive, spaces around the token ignored).
    /// Works on the UTF-8 bytes: this runs on every protected request.
    static func bearerToken(_ header: String) -> String? {
        var bytes = Substring(header).utf8[...]
        while bytes.first == UInt8(ascii: " ") { bytes = bytes.dropFirst() }
        while bytes.last == UInt8(ascii: " ") { bytes = bytes.dropLast() }
        guard bytes.count > 7 else { return nil }
        let scheme = bytes.prefix(6)
        guard zip(scheme, "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 }), bytes.dropFirst(6).first == UInt8(ascii: " ") else { return nil }
        var token = bytes.dropFirst(7)
        while token.first == UInt8(ascii: " ") { token = token.dropFirst() }
        guard !token.isEmpty, !token.contains(UInt8(ascii: " ")) else { return nil }
        return String(Substring(token))
    }

    /// The caller of a protected endpoint: `Authorization: Bearer <access token>` and nothing else.
    func principal(_ request: Request, _ context: GatehouseRequestContext) async throws -> Principal {
        let values = request.headers[values: .authorization]
        guard values.count == 1, let value = values.first else {
            throw GatehouseError.unauthorized(cause: values.isEmpty ? "no Authorization header" : "several Authorization headers")
        }
        guard let token = Self.bearerToken(value) else {
            throw GatehouseError.unauthorized(cause: "Authorization is not a Bearer token")
        }
        return try await sessions.authenticate(bearer: token, logger: context.logger)
    }
}
