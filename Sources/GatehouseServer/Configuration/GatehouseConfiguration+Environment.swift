import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// A setting that could not be read; the message names the variable and what it expects.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension GatehouseConfiguration {
    /// Reads `GATEHOUSE_*` variables (and the seeds' names as aliases). Unknown values are errors that
    /// say which variable is wrong, never silently ignored.
    public static func fromEnvironment(_ env: [String: String]) throws -> GatehouseConfiguration {
        let reader = EnvironmentReader(env: env)
        var c = GatehouseConfiguration()
        c.host = reader.string("GATEHOUSE_HTTP_HOST") ?? c.host
        c.port = try reader.int("GATEHOUSE_HTTP_PORT", in: 0...65535) ?? c.port
        c.trustedProxies = Set(reader.list("GATEHOUSE_TRUSTED_PROXIES"))
        c.maxBodySize = try reader.int("GATEHOUSE_MAX_BODY_BYTES", in: 1024...(16 << 20)) ?? c.maxBodySize
        c.stepUpMaxAge = try reader.int("GATEHOUSE_STEP_UP_MAX_AGE", in: 60...(30 * 86_400)).map(TimeInterval.init)
        c.auditRetentionDays = try reader.int("GATEHOUSE_AUDIT_RETENTION_DAYS", in: 1...3650) ?? c.auditRetentionDays

        c.dataDirectory = reader.string("GATEHOUSE_DATA_DIR") ?? c.dataDirectory
        c.databaseURL = reader.string("GATEHOUSE_DATABASE_URL")
        c.autoMigrate = try reader.bool("GATEHOUSE_AUTO_MIGRATE") ?? c.autoMigrate
        c.masterKey = reader.string("GATEHOUSE_MASTER_KEY")

        c.issuer = reader.string("GATEHOUSE_ISSUER")
        c.clientID = reader.string("GATEHOUSE_CLIENT_ID")
        c.accessTokenLifetime = try reader.seconds("GATEHOUSE_ACCESS_TOKEN_TTL", in: 60...86_400) ?? c.accessTokenLifetime
        c.idTokenLifetime = try reader.seconds("GATEHOUSE_ID_TOKEN_TTL", in: 60...86_400) ?? c.idTokenLifetime
        c.tokenScope = reader.string("GATEHOUSE_TOKEN_SCOPE") ?? c.tokenScope
        c.jwksMaxAge = try reader.int("GATEHOUSE_JWKS_MAX_AGE", in: 0...86_400) ?? c.jwksMaxAge
        c.sessionCacheTTL = try reader.seconds("GATEHOUSE_SESSION_CACHE_TTL", in: 0...60) ?? c.sessionCacheTTL
        c.acceptIDTokens = try reader.bool("GATEHOUSE_ACCEPT_ID_TOKENS") ?? c.acceptIDTokens
        if let algorithm = reader.string("GATEHOUSE_TOKEN_ALG") {
            guard let parsed = SigningAlgorithm(rawValue: algorithm.uppercased()) else {
                throw ConfigurationError("GATEHOUSE_TOKEN_ALG must be 'RS256' or 'ES256', not '\(algorithm)'.")
            }
            c.tokenAlgorithm = parsed
        }
        c.corsOrigins = try reader.list("GATEHOUSE_CORS_ORIGINS").map(Self.corsOrigin)

        if let provider = reader.string("GATEHOUSE_IDENTITY_PROVIDER") {
            guard let kind = IdentityProviderKind(rawValue: provider.lowercased()) else {
                throw ConfigurationError("GATEHOUSE_IDENTITY_PROVIDER must be 'embedded' or 'cognito', not '\(provider)'.")
            }
            c.identityProvider = kind
        }
        if c.identityProvider == .cognito {
            c.cognito = try cognitoSettings(reader)
            c.cognito?.acceptIDTokens = c.acceptIDTokens
            c.awsCredentials = SigV4Signer.Credentials.fromEnvironment(env)
        }

        var pool = c.pool
        pool.appName = reader.string("GATEHOUSE_APP_NAME") ?? pool.appName
        pool.refreshTokenLifetime = try reader.seconds("GATEHOUSE_REFRESH_TOKEN_TTL", in: 3600...(3650 * 86_400)) ?? pool.refreshTokenLifetime
        pool.maxSessionLifetime = try reader.seconds("GATEHOUSE_SESSION_LIFETIME", in: 3600...(3650 * 86_400)) ?? pool.maxSessionLifetime
        pool.refreshReuseGrace = try reader.seconds("GATEHOUSE_REFRESH_REUSE_GRACE", in: 0...60) ?? pool.refreshReuseGrace
        pool.signUpCodeLifetime = try reader.seconds("GATEHOUSE_SIGNUP_CODE_TTL", in: 300...(7 * 86_400)) ?? pool.signUpCodeLifetime
        pool.resetCodeLifetime = try reader.seconds("GATEHOUSE_RESET_CODE_TTL", in: 300...86_400) ?? pool.resetCodeLifetime
        var policy = pool.passwordPolicy
        policy.minLength = try reader.int("GATEHOUSE_PASSWORD_MIN_LENGTH", in: 6...128) ?? policy.minLength
        policy.requireDigit = try reader.bool("GATEHOUSE_PASSWORD_REQUIRE_DIGIT") ?? policy.requireDigit
        policy.requireLowercase = try reader.bool("GATEHOUSE_PASSWORD_REQUIRE_LOWERCASE") ?? policy.requireLowercase
        policy.requireUppercase = try reader.bool("GATEHOUSE_PASSWORD_REQUIRE_UPPERCASE") ?? policy.requireUppercase
        policy.requireSymbol = try reader.bool("GATEHOUSE_PASSWORD_REQUIRE_SYMBOL") ?? policy.requireSymbol
        pool.passwordPolicy = policy
        if let cooldown = try reader.int("GATEHOUSE_MAIL_COOLDOWN", in: 1...3600) {
            pool.rateLimits.mailPerAddress = RateLimitRule(name: "mail.address", freeAttempts: 1, window: TimeInterval(cooldown))
        }
        if let delay = try reader.int("GATEHOUSE_THROTTLE_DELAY_MS", in: 0...10_000) {
            pool.rateLimits.refusalDelay = TimeInterval(delay) / 1000
        }
        if let hourly = try reader.int("GATEHOUSE_MAIL_HOURLY_CAP", in: 1...1000) {
            pool.rateLimits.mailPerAddressHourly = RateLimitRule(name: "mail.address.hour", freeAttempts: hourly, window: 3600)
        }
        if let daily = try reader.int("GATEHOUSE_MAIL_DAILY_CAP", in: 1...10_000) {
            pool.rateLimits.mailPerAddressDaily = RateLimitRule(name: "mail.address.day", freeAttempts: daily, window: 86_400)
        }
        c.pool = pool

        c.scrypt.logN = try reader.int("GATEHOUSE_SCRYPT_LOG_N", in: 10...22) ?? c.scrypt.logN
        c.scrypt.r = try reader.int("GATEHOUSE_SCRYPT_R", in: 1...32) ?? c.scrypt.r
        c.scrypt.p = try reader.int("GATEHOUSE_SCRYPT_P", in: 1...16) ?? c.scrypt.p
        c.hashingConcurrency = try reader.int("GATEHOUSE_HASHING_CONCURRENCY", in: 1...64) ?? c.hashingConcurrency
        c.hashingLimits = BlockingWorkPool.Limits(
            maxQueued: try reader.int("GATEHOUSE_HASHING_QUEUE_LIMIT", in: 1...10_000) ?? c.hashingLimits.maxQueued,
            perLane: try reader.int("GATEHOUSE_HASHING_PER_CLIENT", in: 1...1000) ?? c.hashingLimits.perLane,
            maxWait: try reader.seconds("GATEHOUSE_HASHING_MAX_WAIT", in: 1...300) ?? c.hashingLimits.maxWait
        )

        c.googleClientIDs = reader.list("GATEHOUSE_GOOGLE_CLIENT_IDS", aliases: ["GOOGLE_CLIENT_ID"])
        c.googleJWKSURL = try reader.url("GATEHOUSE_GOOGLE_JWKS_URL") ?? c.googleJWKSURL
        c.googleHostedDomains = reader.list("GATEHOUSE_GOOGLE_HOSTED_DOMAINS").map { $0.lowercased() }
        c.appleClientIDs = reader.list("GATEHOUSE_APPLE_CLIENT_IDS", aliases: ["APPLE_BUNDLE_ID"])
        c.appleJWKSURL = try reader.url("GATEHOUSE_APPLE_JWKS_URL") ?? c.appleJWKSURL
        c.appleAPIURL = try reader.url("GATEHOUSE_APPLE_API_URL").map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? c.appleAPIURL
        c.appleServicesID = reader.string("GATEHOUSE_APPLE_SERVICES_ID")
        c.appleTeamID = reader.string("GATEHOUSE_APPLE_TEAM_ID")
        c.appleKeyID = reader.string("GATEHOUSE_APPLE_KEY_ID")
        c.applePrivateKeyFile = reader.string("GATEHOUSE_APPLE_PRIVATE_KEY_FILE")
        let credentials = [
            ("GATEHOUSE_APPLE_TEAM_ID", c.appleTeamID), ("GATEHOUSE_APPLE_KEY_ID", c.appleKeyID),
            ("GATEHOUSE_APPLE_PRIVATE_KEY_FILE", c.applePrivateKeyFile),
        ]
        let missing = credentials.filter { $0.1 == nil }.map(\.0)
        if !missing.isEmpty, missing.count < credentials.count {
            throw ConfigurationError("Apple credentials are incomplete: also set \(missing.joined(separator: ", ")) (or none of them).")
        }
        if let scheme = reader.string("GATEHOUSE_APP_URL_SCHEME") {
            let lower = scheme.lowercased()
            let valid =
                lower.first.map { ("a"..."z").contains($0) } == true
                && lower.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }
            guard valid, !["http", "https", "javascript", "data", "file", "vbscript", "blob", "about"].contains(lower) else {
                throw ConfigurationError("GATEHOUSE_APP_URL_SCHEME must be your app's custom URL scheme (letters, digits, + - .), not '\(scheme)'.")
            }
            c.appURLScheme = lower
        }
        if let mode = reader.string("GATEHOUSE_APPLE_CALLBACK_MODE") {
            guard let parsed = AppleWebFlow.CallbackMode(rawValue: mode.lowercased()) else {
                throw ConfigurationError("GATEHOUSE_APPLE_CALLBACK_MODE must be 'handoff' or 'forward'.")
            }
            c.appleCallbackMode = parsed
        }
        c.requireNonce = try reader.bool("GATEHOUSE_REQUIRE_NONCE") ?? c.requireNonce
        c.compatAPIV1 = try reader.bool("GATEHOUSE_COMPAT_API_V1") ?? c.compatAPIV1
        c.webhookAllowPrivate = try reader.bool("GATEHOUSE_WEBHOOK_ALLOW_PRIVATE") ?? c.webhookAllowPrivate
        c.webhookTimeout = try reader.seconds("GATEHOUSE_WEBHOOK_TIMEOUT", in: 1...30) ?? c.webhookTimeout
        c.cognitoAPI = try reader.bool("GATEHOUSE_COGNITO_API") ?? c.cognitoAPI
        c.poolID = reader.string("GATEHOUSE_POOL_ID")
        if let poolID = c.poolID, !UserPoolID.isValid(poolID) {
            throw ConfigurationError(
                "GATEHOUSE_POOL_ID must look like a Cognito pool id, <region>_<id> (e.g. us-east-1_Gatehouse1): Amplify needs the '_'."
            )
        }
        if c.cognitoAPI, c.identityProvider == .cognito {
            throw ConfigurationError(
                "GATEHOUSE_COGNITO_API serves Cognito's API from the embedded pool; with GATEHOUSE_IDENTITY_PROVIDER=cognito the app should talk to Cognito itself. Unset one of them."
            )
        }

        c.webGoogleClientID = reader.string("GATEHOUSE_WEB_GOOGLE_CLIENT_ID")
        if let web = c.webGoogleClientID, !c.googleClientIDs.contains(web) {
            throw ConfigurationError("GATEHOUSE_WEB_GOOGLE_CLIENT_ID must also be listed in GATEHOUSE_GOOGLE_CLIENT_IDS.")
        }
        c.webAppleRedirectURI = try reader.url("GATEHOUSE_WEB_APPLE_REDIRECT_URI")
        c.webDirectory = reader.string("GATEHOUSE_WEB_DIR")

        try c.readHostedUI(reader)
        try c.readPasskeys(reader)
        try c.readClaimsHook(reader)
        try c.readMail(reader)
        try c.readSMS(reader)

        if let level = reader.string("GATEHOUSE_LOG_LEVEL") {
            guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
                throw ConfigurationError("GATEHOUSE_LOG_LEVEL must be one of trace, debug, info, notice, warning, error, critical.")
            }
            c.logLevel = parsed
        }
        if let format = reader.string("GATEHOUSE_LOG_FORMAT") {
            guard let parsed = LogFormat(rawValue: format.lowercased()) else {
                throw ConfigurationError("GATEHOUSE_LOG_FORMAT must be 'text' or 'json'.")
            }
            c.logFormat = parsed
        }
        return c
    }
}

extension GatehouseConfiguration {
    /// `GATEHOUSE_COGNITO_*` (the seeds' `COGNITO_USER_POOL_ID`, `COGNITO_CLIENT_ID` and `AWS_REGION` as aliases).
    static func cognitoSettings(_ reader: EnvironmentReader) throws -> CognitoSettings {
        guard let pool = reader.string("GATEHOUSE_COGNITO_USER_POOL_ID", aliases: ["COGNITO_USER_POOL_ID"]) else {
            throw ConfigurationError("GATEHOUSE_IDENTITY_PROVIDER=cognito needs GATEHOUSE_COGNITO_USER_POOL_ID (e.g. us-east-1_AbCdEf123).")
        }
        guard pool.contains("_"), pool.count <= 64, pool.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
            throw ConfigurationError("GATEHOUSE_COGNITO_USER_POOL_ID must look like <region>_<id>, not '\(pool)'.")
        }
        guard let client = reader.string("GATEHOUSE_COGNITO_CLIENT_ID", aliases: ["COGNITO_CLIENT_ID"]) else {
            throw ConfigurationError("GATEHOUSE_IDENTITY_PROVIDER=cognito needs GATEHOUSE_COGNITO_CLIENT_ID (the app client without a secret).")
        }
        let region =
            reader.string("GATEHOUSE_COGNITO_REGION", aliases: ["AWS_REGION", "AWS_DEFAULT_REGION"]) ?? CognitoSettings.region(fromPoolID: pool)
        if let region, let poolRegion = CognitoSettings.region(fromPoolID: pool), region != poolRegion {
            throw ConfigurationError("GATEHOUSE_COGNITO_REGION is '\(region)' but the pool \(pool) lives in \(poolRegion).")
        }
        var settings = CognitoSettings(
            userPoolID: pool,
            clientID: client,
            region: region,
            endpoint: try reader.url("GATEHOUSE_COGNITO_ENDPOINT"),
            jwksURL: try reader.url("GATEHOUSE_COGNITO_JWKS_URL"),
            refreshRotation: try reader.bool("GATEHOUSE_COGNITO_REFRESH_ROTATION") ?? false
        )
        if let days = try reader.int("GATEHOUSE_COGNITO_REFRESH_TOKEN_DAYS", in: 1...3650) {
            settings.refreshTokenLifetime = TimeInterval(days) * 86_400
        }
        return settings
    }
}

/// Typed reads of environment variables, with the variable named in every error.
struct EnvironmentReader {
    let env: [String: String]

    func string(_ name: String, aliases: [String] = []) -> String? {
        for key in [name] + aliases {
            if let value = env[key]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return value }
        }
        return nil
    }

    func list(_ name: String, aliases: [String] = []) -> [String] {
        (string(name, aliases: aliases) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func url(_ name: String) throws -> String? {
        guard let text = string(name) else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
            throw ConfigurationError("\(name) must be an http(s) URL, not '\(text)'.")
        }
        return text
    }

    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw ConfigurationError("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'.")
        }
        return value
    }

    func seconds(_ name: String, in range: ClosedRange<Int>) throws -> TimeInterval? {
        try int(name, in: range).map(TimeInterval.init)
    }

    func bool(_ name: String) throws -> Bool? {
        guard let text = string(name) else { return nil }
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw ConfigurationError("\(name) must be true or false, not '\(text)'.")
        }
    }
}
