/// Google as an identity provider of the hosted UI (`identity_provider=Google`): the web OAuth client
/// Gatehouse signs in with, and Google's endpoints (the real ones unless configured otherwise).
public struct GoogleWebSettings: Sendable {
    /// `GATEHOUSE_GOOGLE_WEB_CLIENT_ID`: the OAuth client's id; also the audience its ID tokens carry.
    public var clientID: String
    /// `GATEHOUSE_GOOGLE_AUTHORIZATION_URL` (`https://accounts.google.com/o/oauth2/v2/auth`).
    public var authorizationURL: String
    /// Our `/oauth2/idpresponse`, registered with Google as an authorized redirect URI.
    public var redirectURI: String

    /// Creates the settings.
    /// - Parameters:
    ///   - clientID: The web OAuth client's id.
    ///   - authorizationURL: Google's authorization endpoint.
    ///   - redirectURI: Our callback.
    public init(clientID: String, authorizationURL: String, redirectURI: String) {
        self.clientID = clientID
        self.authorizationURL = authorizationURL
        self.redirectURI = redirectURI
    }
}
