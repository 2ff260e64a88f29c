import GatehouseCore

/// The seed 003 (Hero365) client's `OAuthSignInResponse`, answered by every `/api/v1` sign-in and
/// refresh: the contract's tokens (the ID token included), the user, and `is_new_user` (always
/// present; `false` outside social sign-in).
public struct CompatSignInResponse: ContractResponse, Equatable {
    public let idToken: String
    public let accessToken: String
    public let refreshToken: String
    public let expiresIn: Int
    public let tokenType: String
    public let user: CompatUserResponse
    public let isNewUser: Bool

    enum CodingKeys: String, CodingKey {
        case idToken = "id_token"
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
        case tokenType = "token_type"
        case user
        case isNewUser = "is_new_user"
    }

    /// The seed's shape of a sign-in.
    /// - Parameters:
    ///   - tokens: The tokens the core issued.
    ///   - user: The signed-in user's profile.
    public init(_ tokens: AuthTokens, user: ProfileView) {
        idToken = tokens.idToken
        accessToken = tokens.accessToken
        refreshToken = tokens.refreshToken
        expiresIn = tokens.expiresIn
        tokenType = "Bearer"
        self.user = CompatUserResponse(user)
        isNewUser = tokens.isNewUser ?? false
    }
}
