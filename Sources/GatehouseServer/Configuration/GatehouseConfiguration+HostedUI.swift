import Foundation

extension GatehouseConfiguration {
    /// Reads the hosted UI's settings (`GATEHOUSE_HOSTED_UI`, the registered URIs, Google's web client).
    /// - Parameter reader: The environment.
    /// - Throws: ``ConfigurationError`` naming the variable at fault.
    mutating func readHostedUI(_ reader: EnvironmentReader) throws {
        hostedUI = try reader.bool("GATEHOUSE_HOSTED_UI") ?? hostedUI
        callbackURLs = try reader.list("GATEHOUSE_CALLBACK_URLS").map { try Self.registeredURI($0, variable: "GATEHOUSE_CALLBACK_URLS") }
        signOutURLs = try reader.list("GATEHOUSE_SIGNOUT_URLS").map { try Self.registeredURI($0, variable: "GATEHOUSE_SIGNOUT_URLS") }
        hostedSessionLifetime = try reader.seconds("GATEHOUSE_HOSTED_SESSION_TTL", in: 300...(30 * 86_400)) ?? hostedSessionLifetime
        googleWebClientID = reader.string("GATEHOUSE_GOOGLE_WEB_CLIENT_ID")
        googleWebClientSecret = reader.string("GATEHOUSE_GOOGLE_WEB_CLIENT_SECRET")
        googleAuthorizationURL = try reader.url("GATEHOUSE_GOOGLE_AUTHORIZATION_URL") ?? googleAuthorizationURL
        googleTokenURL = try reader.url("GATEHOUSE_GOOGLE_TOKEN_URL") ?? googleTokenURL
        if (googleWebClientID == nil) != (googleWebClientSecret == nil) {
            throw ConfigurationError("Set both GATEHOUSE_GOOGLE_WEB_CLIENT_ID and GATEHOUSE_GOOGLE_WEB_CLIENT_SECRET (or neither).")
        }
        if let web = googleWebClientID, !googleClientIDs.contains(web) {
            // Its ID tokens are verified like any other Google token, for this audience alone.
            googleClientIDs.append(web)
        }
        guard hostedUI else { return }
        if identityProvider == .cognito {
            throw ConfigurationError(
                "GATEHOUSE_HOSTED_UI serves the authorization server from the embedded pool; with GATEHOUSE_IDENTITY_PROVIDER=cognito use Cognito's own hosted UI. Unset one of them."
            )
        }
        if callbackURLs.isEmpty {
            throw ConfigurationError(
                "GATEHOUSE_HOSTED_UI needs GATEHOUSE_CALLBACK_URLS: the redirect URIs your app registers (e.g. myapp://callback)."
            )
        }
    }

    /// A redirect or sign-out URI as registered: absolute, no fragment, not a script or data scheme,
    /// and plain http only for a loopback address (RFC 8252 §7.3; OAuth 2.0 Security BCP §4.1).
    static func registeredURI(_ text: String, variable: String) throws -> String {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), url.fragment == nil else {
            throw ConfigurationError("\(variable): '\(text)' is not an absolute URI without a fragment.")
        }
        guard !["javascript", "data", "file", "vbscript", "blob", "about"].contains(scheme) else {
            throw ConfigurationError("\(variable): '\(text)' uses a scheme a browser must never be sent to.")
        }
        if scheme == "http", !["localhost", "127.0.0.1", "::1", "[::1]"].contains(url.host?.lowercased() ?? "") {
            throw ConfigurationError("\(variable): '\(text)' is plain http; use https (http is allowed only for localhost).")
        }
        if scheme == "http" || scheme == "https", url.host == nil {
            throw ConfigurationError("\(variable): '\(text)' has no host.")
        }
        return text
    }
}
