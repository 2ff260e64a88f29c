import Foundation
import GatehouseCore
import Logging

/// The social sign-in parts built from configuration: one key set and verifier per provider (a
/// provider without audiences is off), and the Apple token vault when Apple credentials are set.
struct SocialComponents {
    let google: ProviderTokenVerifier
    let apple: ProviderTokenVerifier
    let vault: AppleTokenVault?

    init(
        configuration c: GatehouseConfiguration,
        store: any GatehouseStore,
        box: SecretBox,
        upstream: UpstreamHTTPClient,
        clock: any TimeSource,
        random: any RandomSource,
        logger: Logger
    ) throws {
        let source = HTTPJWKSSource(upstream: upstream)
        google = ProviderTokenVerifier(
            provider: .google,
            settings: c.googleClientIDs.isEmpty
                ? nil
                : .init(
                    allowedAudiences: Set(c.googleClientIDs),
                    keys: RemoteKeySet(issuerName: "google", url: c.googleJWKSURL, source: source, clock: clock, logger: logger),
                    hostedDomains: Set(c.googleHostedDomains),
                    requireNonce: c.requireNonce
                ),
            clock: clock
        )
        let appleAudiences = c.allowedAppleAudiences
        apple = ProviderTokenVerifier(
            provider: .apple,
            settings: appleAudiences.isEmpty
                ? nil
                : .init(
                    allowedAudiences: appleAudiences,
                    keys: RemoteKeySet(issuerName: "apple", url: c.appleJWKSURL, source: source, clock: clock, logger: logger),
                    requireNonce: c.requireNonce
                ),
            clock: clock
        )
        if let team = c.appleTeamID, let keyID = c.appleKeyID, let file = c.applePrivateKeyFile {
            guard let pem = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ConfigurationError("GATEHOUSE_APPLE_PRIVATE_KEY_FILE: cannot read \(file).")
            }
            let credentials: AppleCredentials
            do {
                credentials = try AppleCredentials(teamID: team, keyID: keyID, privateKeyPEM: pem)
            } catch {
                throw ConfigurationError("GATEHOUSE_APPLE_PRIVATE_KEY_FILE: \(file) is not the .p8 key Apple gave you (a PEM P-256 private key).")
            }
            vault = AppleTokenVault(
                api: HTTPAppleTokenAPI(upstream: upstream, baseURL: c.appleAPIURL, credentials: credentials, clock: clock),
                store: store,
                box: box,
                clock: clock,
                random: random
            )
        } else {
            vault = nil
        }
        if google.isEnabled { logger.info("Sign in with Google enabled", metadata: ["audiences": .stringConvertible(c.googleClientIDs.count)]) }
        if apple.isEnabled {
            logger.info(
                "Sign in with Apple enabled",
                metadata: ["audiences": .stringConvertible(appleAudiences.count), "token_revocation": .stringConvertible(vault != nil)]
            )
        }
    }
}
