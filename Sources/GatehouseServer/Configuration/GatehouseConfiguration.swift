import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import Logging

/// Everything Gatehouse can be configured with, with the defaults that let `gatehouse serve` start on
/// a fresh machine (embedded pool, SQLite in `./.gatehouse`). Read from the environment in exactly one
/// place (``fromEnvironment(_:)``); tests build it directly.
public struct GatehouseConfiguration: Sendable {
    public enum IdentityProviderKind: String, Sendable {
        case embedded
        case cognito
    }

    public enum LogFormat: String, Sendable {
        case text
        case json
    }

    // Listening
    public var host: String = "127.0.0.1"
    public var port: Int = 8080
    /// Client addresses (exact IPs) whose `X-Forwarded-For` is believed.
    public var trustedProxies: Set<String> = []
    public var maxBodySize: Int = 64 * 1024

    // Storage
    public var dataDirectory: String = "./.gatehouse"
    /// `sqlite:///path` or `postgres://…`; `nil` means `<data dir>/gatehouse.sqlite`.
    public var databaseURL: String?
    /// Apply pending migrations on `serve` (otherwise refuse to start while any are pending).
    public var autoMigrate: Bool = true
    /// 32 bytes, base64. `nil`: generated once and kept in `<data dir>/master.key`.
    public var masterKey: String?

    // Tokens
    /// `iss` of our tokens; `nil` means `http://localhost:<port>`.
    public var issuer: String?
    /// The app client id; `nil` means generated once and kept in the store.
    public var clientID: String?
    public var accessTokenLifetime: TimeInterval = 3600
    public var idTokenLifetime: TimeInterval = 3600
    public var tokenScope: String = "openid email profile"
    public var jwksMaxAge: Int = 600
    public var sessionCacheTTL: TimeInterval = 5

    // Identity provider and pool
    public var identityProvider: IdentityProviderKind = .embedded
    public var pool = PoolSettings()
    public var scrypt = ScryptPasswordHasher.Parameters.owasp
    /// Hashes computed at once; `nil` means ``BlockingWorkPool/defaultWidth(bytesPerJob:)`` (cores − 1,
    /// and no more than a quarter of the memory can hold at the scrypt parameters).
    public var hashingConcurrency: Int?
    /// The hashing queue's bounds (waiting jobs, per client address, longest wait).
    package var hashingLimits = BlockingWorkPool.Limits()
    /// Set (and required) when `identityProvider` is `cognito`.
    public var cognito: CognitoSettings?
    /// AWS credentials for Cognito's administrator operations (`AWS_ACCESS_KEY_ID` and friends).
    public var awsCredentials: SigV4Signer.Credentials?

    // Social sign-in
    /// Allowed Google audiences (web, iOS and Android client ids); empty disables Google sign-in.
    public var googleClientIDs: [String] = []
    public var googleJWKSURL = "https://www.googleapis.com/oauth2/v3/certs"
    /// Google Workspace domains (`hd`) allowed; empty allows every account.
    public var googleHostedDomains: [String] = []
    /// Allowed Apple audiences (bundle ids, and the services id); empty disables Apple sign-in.
    public var appleClientIDs: [String] = []
    public var appleJWKSURL = "https://appleid.apple.com/auth/keys"
    /// Base of Apple's `/auth/authorize`, `/auth/token` and `/auth/revoke`.
    public var appleAPIURL = "https://appleid.apple.com"
    /// The Services ID of the web/Android flow (also an allowed audience).
    public var appleServicesID: String?
    public var appleTeamID: String?
    public var appleKeyID: String?
    public var applePrivateKeyFile: String?
    /// The app's custom URL scheme for the Apple hand-off (`<scheme>://apple-callback?…`).
    public var appURLScheme = "awscognito"
    public var appleCallbackMode: AppleWebFlow.CallbackMode = .handoff
    public var requireNonce = false

    // Webhooks
    /// Let webhook URLs resolve to loopback, private, link-local and other non-public addresses
    /// (`GATEHOUSE_WEBHOOK_ALLOW_PRIVATE`, default `false`; tests and local development set it).
    public var webhookAllowPrivate = false
    /// One webhook attempt's limit in seconds (`GATEHOUSE_WEBHOOK_TIMEOUT`, 1 to 30, default 5).
    public var webhookTimeout: TimeInterval = 5

    // Compatibility APIs
    /// Serve the seed 003 (Hero365) API under `/api/v1` (`GATEHOUSE_COMPAT_API_V1`, default `false`):
    /// `POST /api/v1/auth/apple/signin`, `/google/signin`, `/signup`, `/signin`, `/refresh` and
    /// `GET /api/v1/users/me`, in the seed's shapes, on the native endpoints' use cases. Off, they answer 404.
    public var compatAPIV1 = false
    /// Serve Amazon Cognito's user-pool API on the embedded pool (`GATEHOUSE_COGNITO_API`, default
    /// `false`): `POST /` with `X-Amz-Target: AWSCognitoIdentityProviderService.<Operation>`, SRP
    /// included, so Amplify apps and the AWS SDKs sign in unchanged (docs/cognito-api.md).
    public var cognitoAPI = false
    /// The Cognito pool id the embedded pool answers as (`GATEHOUSE_POOL_ID`, `<region>_<id>`); unset:
    /// one generated on the first start and kept in the database. Part of every SRP verifier.
    public var poolID: String?
    /// How long a sign-in counts as recent for a sensitive action (`GATEHOUSE_STEP_UP_MAX_AGE`,
    /// seconds); nil: any age, as long as the session's sign-in is as strong as the account's strongest.
    public var stepUpMaxAge: TimeInterval?
    /// How many days audit-log rows are kept before the maintenance job (one instance per round)
    /// prunes them (`GATEHOUSE_AUDIT_RETENTION_DAYS`, 1–3650, 90 by default).
    public var auditRetentionDays = 90

    /// Browser origins allowed to call the JSON API across origins (`GATEHOUSE_CORS_ORIGINS`, exact
    /// `scheme://host[:port]`, comma-separated; none by default; `*` is refused).
    public var corsOrigins: [String] = []
    /// Let protected endpoints take an ID token (`aud` = the client id) as the bearer, as an API Gateway
    /// JWT authorizer with that audience does (`GATEHOUSE_ACCEPT_ID_TOKENS`, default `false`): the seeds'
    /// iOS apps send `getIdToken()`. The same session liveness applies.
    public var acceptIDTokens = false
    /// The algorithm the embedded pool signs tokens with (`GATEHOUSE_TOKEN_ALG`: `RS256`, the default, or
    /// `ES256`). Changing it switches both signing keys at the next start; the old keys keep verifying
    /// (and stay in the JWKS) for ``signingKeyOverlap``. Ignored with Cognito: AWS signs those tokens.
    public var tokenAlgorithm = SigningAlgorithm.rs256
    /// How long a key that stopped signing stays published: the longest token lifetime, the JWKS cache
    /// time and a minute of leeway, so no token it signed stops verifying early.
    public var signingKeyOverlap: TimeInterval { max(accessTokenLifetime, idTokenLifetime) + TimeInterval(jwksMaxAge) + 60 }

    /// Passkeys (`GATEHOUSE_PASSKEY_*`, docs/passkeys.md); off until `GATEHOUSE_PASSKEY_RP_ID` is set.
    public var passkeys = PasskeyConfiguration()
    /// The custom-claims hook (`GATEHOUSE_CLAIMS_HOOK_*`, docs/claims-hook.md); `nil` when not configured.
    public var claimsHook: ClaimsHookConfiguration?

    // Hosted UI (docs/hosted-ui.md)
    /// Serve the OAuth 2.0 / OpenID Connect authorization server with Cognito's endpoints and the
    /// sign-in pages (`GATEHOUSE_HOSTED_UI`, default `false`; embedded pool only).
    public var hostedUI = false
    /// The app client's registered redirect URIs (`GATEHOUSE_CALLBACK_URLS`, comma-separated, matched exactly).
    public var callbackURLs: [String] = []
    /// Where `/logout` may send the browser (`GATEHOUSE_SIGNOUT_URLS`, comma-separated, matched exactly).
    public var signOutURLs: [String] = []
    /// How long the hosted session's cookie lasts (`GATEHOUSE_HOSTED_SESSION_TTL`, seconds, default 3600).
    public var hostedSessionLifetime: TimeInterval = 3600
    /// The Google web OAuth client the hosted UI signs in with (`GATEHOUSE_GOOGLE_WEB_CLIENT_ID`).
    public var googleWebClientID: String?
    /// Its secret (`GATEHOUSE_GOOGLE_WEB_CLIENT_SECRET`).
    public var googleWebClientSecret: String?
    /// Google's authorization endpoint (`GATEHOUSE_GOOGLE_AUTHORIZATION_URL`).
    public var googleAuthorizationURL = "https://accounts.google.com/o/oauth2/v2/auth"
    /// Google's token endpoint (`GATEHOUSE_GOOGLE_TOKEN_URL`).
    public var googleTokenURL = "https://oauth2.googleapis.com/token"

    // Web page
    /// The Google client id the web page's button uses (one of `googleClientIDs`); none hides it.
    public var webGoogleClientID: String?
    /// The redirect URI Sign in with Apple JS is registered with (popup mode); defaults to the issuer.
    public var webAppleRedirectURI: String?
    /// Serve the page from this directory instead of the embedded copy (development).
    public var webDirectory: String?

    // Mail
    /// Where mail goes (`GATEHOUSE_MAIL`): the outbox, SMTP or Amazon SES.
    public var mail: MailTransportSettings = .outbox
    /// The `From:` of every message (`GATEHOUSE_MAIL_FROM`).
    public var mailFrom: String = "Gatehouse <no-reply@localhost>"
    /// The `Reply-To:` (`GATEHOUSE_MAIL_REPLY_TO`), if any.
    public var mailReplyTo: String?
    /// A directory of templates replacing the built-in ones (`GATEHOUSE_MAIL_TEMPLATES`).
    public var mailTemplates: String?
    /// Retries, dead-lettering and retention of every queued message, mail, texts and webhooks alike
    /// (`GATEHOUSE_MAIL_MAX_ATTEMPTS`, `GATEHOUSE_MAIL_RETRY_BASE`, `GATEHOUSE_MAIL_RETENTION`: the names
    /// are older than the other channels and stay, as operators' settings do).
    public var messageDelivery = DeliverySettings()

    // SMS
    /// Where text messages go (`GATEHOUSE_SMS`): the outbox or Amazon SNS.
    public var sms: SMSTransportSettings = .outbox
    /// Which numbers may be texted (`GATEHOUSE_SMS_COUNTRIES`); none allowed: phone sign-in is off.
    public var smsCountries: SMSCountryPolicy = .disabled

    // Logging
    public var logLevel: Logger.Level = .info
    public var logFormat: LogFormat = .text

    public init() {}

    /// ``hashingConcurrency``, or the default for the configured scrypt parameters.
    public var resolvedHashingConcurrency: Int {
        hashingConcurrency ?? BlockingWorkPool.defaultWidth(bytesPerJob: scrypt.memoryBytes)
    }

    /// `<data dir>/gatehouse.sqlite` unless a database URL is set.
    public var resolvedDatabaseURL: String {
        databaseURL ?? "sqlite://" + URL(fileURLWithPath: dataDirectory).appendingPathComponent("gatehouse.sqlite").path
    }

    public var resolvedIssuer: String {
        var issuer = self.issuer ?? "http://localhost:\(port)"
        while issuer.hasSuffix("/") { issuer.removeLast() }
        return issuer
    }

    /// Every Apple audience: the configured ids plus the services id.
    public var allowedAppleAudiences: Set<String> {
        Set(appleClientIDs + (appleServicesID.map { [$0] } ?? []))
    }

    public var outboxDirectory: URL {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("outbox")
    }

    /// `<data dir>/sms`: where `GATEHOUSE_SMS=outbox` writes text messages.
    public var smsOutboxDirectory: URL {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("sms")
    }
}
