import GatehouseAPI
import GatehouseCore
import GatehouseInfrastructure
import Hummingbird

/// The tokens every sign-in, refresh and exchange answers with.
extension Components.Schemas.Tokens {
    /// The wire form of the core's tokens.
    /// - Parameter tokens: Tokens the core issued.
    init(_ tokens: AuthTokens) {
        self.init(
            idToken: tokens.idToken,
            accessToken: tokens.accessToken,
            refreshToken: tokens.refreshToken,
            expiresIn: tokens.expiresIn,
            tokenType: .bearer,
            isNewUser: tokens.isNewUser
        )
    }

    /// The body of every token exchange, written by hand straight into one buffer (the hot path the
    /// signing benchmark measures) instead of by ``ContractEncoder``. The same members and values as
    /// `jsonBytes()` (`ContractBodyTests` compares them); the members in the schema's order, as this
    /// answer has always been written.
    /// - Returns: The UTF-8 bytes.
    func fastJSONBytes() -> [UInt8] {
        var out = JSONObjectWriter(capacity: idToken.utf8.count + accessToken.utf8.count + 256)
        out.string(CodingKeys.idToken.rawValue, idToken)
        out.string(CodingKeys.accessToken.rawValue, accessToken)
        out.string(CodingKeys.refreshToken.rawValue, refreshToken)
        out.integer(CodingKeys.expiresIn.rawValue, Int64(expiresIn))
        out.string(CodingKeys.tokenType.rawValue, tokenType.rawValue)
        if let isNewUser { out.bool(CodingKeys.isNewUser.rawValue, isNewUser) }
        return out.finish()
    }

    /// `200` with the tokens, `Cache-Control: no-store`.
    /// - Returns: The response.
    func fastResponse() -> Response {
        JSONResponse.make(.ok, body: fastJSONBytes())
    }
}
