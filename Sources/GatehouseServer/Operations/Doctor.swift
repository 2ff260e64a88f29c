import AsyncHTTPClient
import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseInfrastructure
import GatehouseStore
import Logging

/// `gatehouse doctor`: checks the configuration against what it points at and says how to fix what
/// is wrong. Nothing is created or changed (no master key, no signing keys, no migrations).
public enum Doctor {
    public static func run(configuration c: GatehouseConfiguration, logger: Logger) async -> DoctorReport {
        var findings = socialFindings(c)
        let upstream = UpstreamHTTPClient()
        switch c.identityProvider {
        case .embedded:
            findings += await embeddedFindings(c, upstream: upstream, logger: logger)
        case .cognito:
            if let settings = c.cognito {
                let client = CognitoClient(
                    settings: .init(region: settings.region, endpoint: settings.endpoint, credentials: c.awsCredentials, maxAttempts: 1),
                    http: { try upstream.client }
                )
                let expected = CognitoDoctor.Expectations(
                    googleClientIDs: c.googleClientIDs,
                    appleClientIDs: c.appleClientIDs,
                    appleServicesID: c.appleServicesID,
                    appURLScheme: c.appURLScheme,
                    hasCredentials: c.awsCredentials != nil
                )
                findings += await CognitoDoctor(settings: settings, client: client, expected: expected).run(logger: logger)
                findings.append(await jwksFinding(settings.jwksURL, upstream: upstream))
                if c.tokenAlgorithm != .rs256 {
                    findings.append(
                        .warning(
                            "cognito.token-alg",
                            "GATEHOUSE_TOKEN_ALG=\(c.tokenAlgorithm.rawValue) is ignored: with Cognito, AWS signs the tokens (RS256).",
                            fix: "Unset GATEHOUSE_TOKEN_ALG; it applies to the embedded pool only."
                        )
                    )
                }
            }
        }
        try? await upstream.shutdown()
        let title: String
        switch c.identityProvider {
        case .embedded: title = "gatehouse doctor — embedded user pool, store \(redacted(c.resolvedDatabaseURL)), issuer \(c.resolvedIssuer)"
        case .cognito:
            title =
                "gatehouse doctor — Amazon Cognito pool \(c.cognito?.userPoolID ?? "?") (\(c.cognito?.region ?? "?")), app client \(c.cognito?.clientID ?? "?")"
        }
        return DoctorReport(title: title, findings: findings)
    }

    static func redacted(_ url: String) -> String {
        (try? StoreLocation(url: url).redacted) ?? "?"
    }

    /// Google and Apple settings that cannot work, whoever holds the users.
    static func socialFindings(_ c: GatehouseConfiguration) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let badGoogle = c.googleClientIDs.filter { !$0.hasSuffix(".apps.googleusercontent.com") }
        if !badGoogle.isEmpty {
            findings.append(
                .problem(
                    "google.client-ids",
                    "GATEHOUSE_GOOGLE_CLIENT_IDS has entries that are not Google OAuth client ids: \(badGoogle.joined(separator: ", ")).",
                    fix:
                        "Use the client ids from Google Cloud's Credentials page (…apps.googleusercontent.com): the iOS one, and the web one that Android and the web page use."
                )
            )
        } else if !c.googleClientIDs.isEmpty {
            findings.append(.ok("google.client-ids", "Sign in with Google accepts \(c.googleClientIDs.count) client id(s)."))
        }
        if let services = c.appleServicesID {
            if c.appleClientIDs.contains(services) {
                findings.append(
                    .problem(
                        "apple.services-id",
                        "GATEHOUSE_APPLE_SERVICES_ID (\(services)) is also listed as a bundle id in GATEHOUSE_APPLE_CLIENT_IDS.",
                        fix:
                            "The Services ID (web and Android) and the app's bundle id (native iOS) are different identifiers: list the bundle id in GATEHOUSE_APPLE_CLIENT_IDS and the Services ID only in GATEHOUSE_APPLE_SERVICES_ID."
                    )
                )
            }
            if c.appleTeamID == nil {
                findings.append(
                    .warning(
                        "apple.credentials",
                        "Apple credentials (team id, key id, .p8 key) are not set.",
                        fix:
                            "Without them the web flow cannot exchange codes and deleted accounts' Apple tokens are not revoked (App Store Review Guideline 5.1.1(v))."
                    )
                )
            }
        }
        if c.compatAPIV1 {
            findings.append(
                .ok(
                    "compat.api-v1",
                    "GATEHOUSE_COMPAT_API_V1: the seed 003 (Hero365) API is served under /api/v1 (Apple, Google, email and password, "
                        + "refresh, users/me, and phone sign-in at /api/v1/auth/otp/*"
                        + (c.smsCountries.isEnabled ? ")." : ", which answers 403 until GATEHOUSE_SMS_COUNTRIES is set).")
                )
            )
        }
        if c.smsCountries.isEnabled {
            let codes = c.smsCountries.allowedCountries.sorted().joined(separator: ", ")
            if c.identityProvider == .cognito {
                findings.append(
                    .warning(
                        "sms.countries",
                        "GATEHOUSE_SMS_COUNTRIES is set, but phone sign-in is not offered on Cognito: it answers 403 provider_disabled.",
                        fix: "Unset GATEHOUSE_SMS_COUNTRIES, or run on the embedded user pool to offer phone sign-in."
                    )
                )
            } else if c.sms.isOutbox {
                findings.append(
                    .warning(
                        "sms.countries",
                        "Phone sign-in is on for \(codes), but GATEHOUSE_SMS=outbox writes texts to \(c.smsOutboxDirectory.path) instead of sending them.",
                        fix: "Set GATEHOUSE_SMS=sns (with AWS credentials and GATEHOUSE_SNS_REGION) before real users sign in with a phone."
                    )
                )
            } else {
                findings.append(.ok("sms.countries", "Phone sign-in is on for \(codes), texted through Amazon SNS (\(c.sms.redacted))."))
            }
        }
        if c.webhookAllowPrivate {
            findings.append(
                .warning(
                    "webhooks.private",
                    "GATEHOUSE_WEBHOOK_ALLOW_PRIVATE=true: webhook URLs may point at loopback, private and link-local addresses (the cloud metadata service among them).",
                    fix: "Unset it outside local development and tests."
                )
            )
        }
        return findings
    }

    static func embeddedFindings(_ c: GatehouseConfiguration, upstream: UpstreamHTTPClient, logger: Logger) async -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        // The master key, without creating one.
        var masterKey: [UInt8]?
        let keyFile = URL(fileURLWithPath: c.dataDirectory).appendingPathComponent("master.key")
        if let configured = c.masterKey {
            masterKey = Data(base64Encoded: configured).map(Array.init)
        } else if let text = try? String(contentsOf: keyFile, encoding: .utf8) {
            masterKey = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)).map(Array.init)
            if masterKey == nil {
                findings.append(
                    .problem(
                        "embedded.master-key",
                        "\(keyFile.path) does not hold a base64 key.",
                        fix: "Restore the file from your backup; without it the signing keys cannot be opened."
                    )
                )
            }
        }
        // The signing keys (a SQLite file that does not exist yet is not created here).
        let sqlitePath = c.resolvedDatabaseURL.hasPrefix("sqlite://") ? String(c.resolvedDatabaseURL.dropFirst("sqlite://".count)) : nil
        if let sqlitePath, !FileManager.default.fileExists(atPath: sqlitePath) {
            findings.append(
                .warning(
                    "embedded.keys",
                    "No database at \(sqlitePath) yet.",
                    fix: "`gatehouse serve` creates it, with the signing keys, on first start; nothing to do."
                )
            )
        } else {
            findings += await keyFindings(c, masterKey: masterKey, keyFile: keyFile, logger: logger)
        }
        findings += await issuerFindings(c, upstream: upstream)
        let storeExists = sqlitePath.map { FileManager.default.fileExists(atPath: $0) } ?? true
        findings += await mailFindings(c, storeExists: storeExists, logger: logger)
        findings += await cognitoAPIFindings(c, storeExists: storeExists, logger: logger)
        findings += hostedUIFindings(c)
        return findings
    }

    static func keyFindings(_ c: GatehouseConfiguration, masterKey: [UInt8]?, keyFile: URL, logger: Logger) async -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        do {
            let location = try StoreLocation(url: c.resolvedDatabaseURL)
            let keys = try await location.withStore(logger: logger) { store in try await store.secrets.signingKeys() }
            let active = keys.filter { $0.retiredAt == nil }
            findings.append(tokenAlgorithmFinding(c, activeAlgorithms: Set(active.map(\.algorithm))))
            if keys.isEmpty {
                findings.append(
                    .warning("embedded.keys", "No signing keys yet.", fix: "They are created when `gatehouse serve` first starts; nothing to do.")
                )
            } else if let masterKey, let box = try? SecretBox(masterKey: masterKey) {
                let unreadable = keys.filter { (try? box.open($0.sealedPrivateKey, context: "signing-key:\($0.kid)")) == nil }
                if !unreadable.isEmpty {
                    findings.append(
                        .problem(
                            "embedded.keys",
                            "\(unreadable.count) signing key(s) cannot be opened with this master key.",
                            fix:
                                "The master key changed (GATEHOUSE_MASTER_KEY or \(keyFile.path)). Restore the original; rotating (`gatehouse keys rotate`) only helps once it is back."
                        )
                    )
                } else if Set(active.map(\.use)) != ["id", "access"] {
                    findings.append(
                        .problem(
                            "embedded.keys",
                            "The store lacks an active ID-token or access-token key.",
                            fix: "Run `gatehouse keys rotate --use both`."
                        )
                    )
                } else {
                    findings.append(
                        .ok(
                            "embedded.keys",
                            "\(active.count) active signing keys (ID and access), \(keys.count - active.count) retired, all readable."
                        )
                    )
                }
            } else {
                findings.append(
                    .problem(
                        "embedded.master-key",
                        "Signing keys exist but no master key was found.",
                        fix: "Set GATEHOUSE_MASTER_KEY or restore \(keyFile.path); a new master key cannot open the existing keys."
                    )
                )
            }
        } catch {
            findings.append(
                .problem(
                    "embedded.store",
                    "The store cannot be opened: \(error).",
                    fix: "Check GATEHOUSE_DATABASE_URL / GATEHOUSE_DATA_DIR and that the database is running."
                )
            )
        }
        return findings
    }

    static func issuerFindings(_ c: GatehouseConfiguration, upstream: UpstreamHTTPClient) async -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        // The issuer: third parties fetch the keys from there.
        var request = HTTPClientRequest(url: c.resolvedIssuer + "/.well-known/openid-configuration")
        request.method = .GET
        do {
            let reply = try await upstream.send(request, timeout: .seconds(3))
            let issuer = (try? StrictJSONParser().parse(reply.body))?.objectValue?["issuer"]?.stringValue
            if reply.status == 200, issuer == c.resolvedIssuer {
                findings.append(.ok("embedded.issuer", "\(c.resolvedIssuer) serves this server's discovery document."))
            } else {
                findings.append(
                    .problem(
                        "embedded.issuer",
                        "\(c.resolvedIssuer) answers, but not as this Gatehouse (HTTP \(reply.status), issuer \(issuer ?? "none")).",
                        fix: "Set GATEHOUSE_ISSUER to the public URL that reaches this server; tokens carry it and verifiers fetch keys from it."
                    )
                )
            }
        } catch {
            findings.append(
                .warning(
                    "embedded.issuer",
                    "\(c.resolvedIssuer) is not reachable from here.",
                    fix:
                        "Start the server, or set GATEHOUSE_ISSUER to its public URL: verifiers (API Gateway, other services) fetch /.well-known/jwks.json from it."
                )
            )
        }
        if c.resolvedIssuer.hasPrefix("http://"), !["localhost", "127.0.0.1", "[::1]"].contains(URL(string: c.resolvedIssuer)?.host ?? "") {
            findings.append(
                .warning(
                    "embedded.issuer-https",
                    "The issuer is plain HTTP.",
                    fix: "Serve Gatehouse over HTTPS in production and set GATEHOUSE_ISSUER to the https:// URL."
                )
            )
        }
        return findings
    }

    static func jwksFinding(_ url: String, upstream: UpstreamHTTPClient) async -> DoctorFinding {
        do {
            let reply = try await upstream.send(HTTPClientRequest(url: url), timeout: .seconds(5))
            let keys = reply.status == 200 ? (try? JWSKeySet.parseJWKS(reply.body)) : nil
            if let keys, !keys.isEmpty { return .ok("cognito.jwks", "The pool's key set (\(keys.keys.count) keys) is reachable.") }
            return .problem(
                "cognito.jwks",
                "The pool's key set at \(url) answered HTTP \(reply.status) without usable keys.",
                fix: "Check GATEHOUSE_COGNITO_JWKS_URL (or unset it to use the pool's own)."
            )
        } catch {
            return .problem(
                "cognito.jwks",
                "The pool's key set at \(url) is not reachable.",
                fix: "Access tokens cannot be verified without it: check the network and GATEHOUSE_COGNITO_JWKS_URL."
            )
        }
    }
}
