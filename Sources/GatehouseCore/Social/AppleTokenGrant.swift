/// What Apple's token endpoint answered to an authorization code.
public struct AppleTokenGrant: Sendable, Equatable {
    /// Apple's refresh token, if it sent one.
    public var refreshToken: String?
    /// The identity token Apple returned with it (compact JWS), if any: it says whose code it was.
    public var idToken: String?

    /// - Parameters:
    ///   - refreshToken: Apple's refresh token.
    ///   - idToken: The identity token that came with it.
    public init(refreshToken: String?, idToken: String?) {
        self.refreshToken = refreshToken
        self.idToken = idToken
    }
}
