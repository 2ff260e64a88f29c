import GatehouseAPI
import GatehouseCore

/// The seed 003 (Hero365) client's `OAuthSignInResponse`, answered by every `/api/v1` sign-in and
/// refresh: the contract's tokens (the ID token included), the user, and `is_new_user`.
extension Components.Schemas.CompatSignIn {
    /// The seed's shape of a sign-in.
    /// - Parameters:
    ///   - tokens: The tokens the core issued.
    ///   - user: The signed-in user's profile.
    init(_ tokens: AuthTokens, user: ProfileView) {
        self.init(
            idToken: tokens.idToken,
            accessToken: tokens.accessToken,
            refreshToken: tokens.refreshToken,
            expiresIn: tokens.expiresIn,
            tokenType: .bearer,
            user: .init(user),
            isNewUser: tokens.isNewUser ?? false
        )
    }
}
