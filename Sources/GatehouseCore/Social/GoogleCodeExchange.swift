/// Google's token endpoint, for the hosted UI's redirect sign-in: Gatehouse is a confidential OAuth
/// client of Google and exchanges the authorization code server-side. The server implements it over
/// HTTP; tests point it at a local fake.
public protocol GoogleCodeExchange: Sendable {
    /// Exchanges Google's authorization code for its ID token.
    /// - Parameters:
    ///   - code: The code Google sent back to `/oauth2/idpresponse`.
    ///   - redirectURI: The redirect URI the code was requested with.
    /// - Returns: Google's ID token, verified by the caller.
    /// - Throws: `invalid_token` when Google refuses the code, `upstream_unavailable` when it cannot be reached.
    func exchange(code: String, redirectURI: String) async throws -> String
}
