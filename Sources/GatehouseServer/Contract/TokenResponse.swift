import GatehouseCore
import GatehouseInfrastructure
import HTTPTypes
import Hummingbird

/// The tokens every sign-in, refresh and exchange answers with.
public struct TokenResponse: ContractResponse, Equatable {
    public let idToken: String
    public let accessToken: String
    public let refreshToken: String
    public let expiresIn: Int
    public let tokenType: String
    /// Present for social sign-in only.
    public let isNewUser: Bool?

    enum CodingKeys: String, CodingKey {
        case idToken = "id_token"
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
        case tokenType = "token_type"
        case isNewUser = "is_new_user"
    }

    /// The wire form of the core's tokens.
    /// - Parameter tokens: Tokens the core issued.
    public init(_ tokens: AuthTokens) {
        idToken = tokens.idToken
        accessToken = tokens.accessToken
        refreshToken = tokens.refreshToken
        expiresIn = tokens.expiresIn
        tokenType = "Bearer"
        isNewUser = tokens.isNewUser
    }

    /// The same JSON as `Encodable` gives, written straight into one buffer: this is the body of
    /// every token exchange, the hot path the signing benchmark measures. The contract tests
    /// validate what it writes against `openapi.yaml`.
    /// - Returns: The UTF-8 bytes.
    public func fastJSONBytes() -> [UInt8] {
        var out = JSONObjectWriter(capacity: idToken.utf8.count + accessToken.utf8.count + 256)
        out.string(CodingKeys.idToken.rawValue, idToken)
        out.string(CodingKeys.accessToken.rawValue, accessToken)
        out.string(CodingKeys.refreshToken.rawValue, refreshToken)
        out.integer(CodingKeys.expiresIn.rawValue, Int64(expiresIn))
        out.string(CodingKeys.tokenType.rawValue, tokenType)
        if let isNewUser { out.bool(CodingKeys.isNewUser.rawValue, isNewUser) }
        return out.finish()
    }

    /// `200` with the tokens, `Cache-Control: no-store`.
    /// - Returns: The response.
    public func fastResponse() -> Response {
        JSONResponse.make(.ok, body: fastJSONBytes())
    }
}
